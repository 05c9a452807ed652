// The core services table handed to every backend (backend_abi.h): clock, thread ids,
// correlation ids, the kind-enabled queries, record emission, API call scopes, agents, code
// objects and drops. The HOT entries run on the application's threads.
#include <cstring>

#include "agents.hpp"
#include "backend_loader.hpp"
#include "clock.hpp"
#include "code_objects.hpp"
#include "context.hpp"
#include "counters/dispatch_counting.hpp"
#include "dispatch.hpp"
#include "external_request.hpp"
#include "pc_sampling.hpp"

namespace rocprof::core {
namespace {

rocprofiler_timestamp_t svc_timestamp() {
  return now_ns();
}

rocprofiler_thread_id_t svc_thread_id() {
  thread_state* st = current_thread();
  return st != nullptr ? st->tid : 0;
}

uint64_t svc_next_correlation_id() {
  return next_correlation_id(current_thread());
}

uint64_t svc_current_ancestor() {
  thread_state* st = current_thread();
  return st != nullptr ? st->current_api : 0;
}

rocprofiler_user_data_t svc_external_correlation_id(rocprofiler_context_id_t ctx) {
  thread_state* st = current_thread();
  if (st == nullptr) return rocprofiler_user_data_t{0};
  if (ctx.handle != 0) return external_id(*st, static_cast<uint32_t>(ctx.handle - 1));
  for (auto it = st->externals.rbegin(); it != st->externals.rend(); ++it)
    if (g_contexts[it->context_index]->active.load(std::memory_order_relaxed)) return it->value;
  return rocprofiler_user_data_t{0};
}

int svc_buffer_kind_enabled(rocprofiler_buffer_tracing_kind_t kind,
                            rocprofiler_tracing_operation_t op) {
  if (kind <= 0 || kind >= ROCPROFILER_BUFFER_TRACING_LAST || !buffer_kind_on(kind)) return 0;
  const uint32_t n = g_num_contexts.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < n; ++i) {
    const buffer_service* svc = active_buffer_service(i, kind);
    if (svc != nullptr && svc->ops.test(op)) return 1;
  }
  return 0;
}

int svc_callback_kind_enabled(rocprofiler_callback_tracing_kind_t kind,
                              rocprofiler_tracing_operation_t op) {
  if (kind <= 0 || kind >= ROCPROFILER_CALLBACK_TRACING_LAST || !callback_kind_on(kind)) return 0;
  const uint32_t n = g_num_contexts.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < n; ++i) {
    const callback_service* svc = active_callback_service(i, kind);
    if (svc != nullptr && svc->ops.test(op)) return 1;
  }
  return 0;
}

void svc_emit_buffer_record(rocprofiler_buffer_tracing_kind_t kind, const void* record,
                            uint32_t flags) {
  if (kind <= 0 || kind >= ROCPROFILER_BUFFER_TRACING_LAST || !buffer_kind_on(kind)) return;
  thread_state* st = current_thread();
  if (st == nullptr || record == nullptr) return;
  uint64_t size = 0;
  std::memcpy(&size, record, sizeof(size));
  if (size < 16 || size > max_record_size) {
    warn_once("emit-size", "a backend emitted a record with an invalid size; dropped");
    report_dropped(kind, 1);
    return;
  }
  rocprofiler_tracing_operation_t op = 0;
  std::memcpy(&op, static_cast<const unsigned char*>(record) + 12, sizeof(op));
  emit_record(st, kind, op, record, size, (flags & ROCPROF_EMIT_FILL_EXTERNAL) != 0);
}

// One clock read per call phase: a backend that stamped the call's start passes it.
void svc_api_enter_at(rocprof_api_scope_t* scope, rocprofiler_callback_tracing_kind_t kind,
                      rocprofiler_tracing_operation_t op, void* payload,
                      rocprofiler_timestamp_t start) {
  thread_state* st = current_thread();
  scope->size = sizeof(*scope);
  scope->kind = kind;
  scope->operation = op;
  scope->num_contexts = 0;
  scope->start_timestamp = start;
  scope->correlation_id.internal = next_correlation_id(st);
  scope->correlation_id.external = svc_external_correlation_id(rocprofiler_context_id_t{0});
  scope->correlation_id.ancestor = st != nullptr ? st->current_api : 0;
  scope->previous_api = scope->correlation_id.ancestor;
  if (st == nullptr) return;
  request_external_id(st, request_kind_of(kind), op, scope->correlation_id.internal,
                      &scope->correlation_id.external);
  st->current_api = scope->correlation_id.internal;
  if (kind <= 0 || kind >= ROCPROFILER_CALLBACK_TRACING_LAST || !callback_kind_on(kind)) return;
  callback_set set;
  callbacks_enter(st, kind, op, scope->correlation_id, payload, set);
  scope->num_contexts = set.count;
  for (uint32_t i = 0; i < set.count; ++i) {
    scope->contexts[i].handle = context_handle(set.context_index[i]);
    scope->user_data[i] = set.user_data[i];
  }
}

void svc_api_enter(rocprof_api_scope_t* scope, rocprofiler_callback_tracing_kind_t kind,
                   rocprofiler_tracing_operation_t op, void* payload) {
  svc_api_enter_at(scope, kind, op, payload, now_ns());
}

void svc_api_exit(rocprof_api_scope_t* scope, void* payload) {
  thread_state* st = current_thread();
  if (st == nullptr) return;
  if (scope->num_contexts > 0) {
    callback_set set;
    set.count = scope->num_contexts;
    for (uint32_t i = 0; i < set.count; ++i) {
      set.context_index[i] = static_cast<uint32_t>(scope->contexts[i].handle - 1);
      set.user_data[i] = scope->user_data[i];
    }
    callbacks_exit(st, scope->kind, scope->operation, scope->correlation_id, payload, set);
  }
  st->current_api = scope->previous_api;
}

rocprofiler_agent_id_t svc_register_agent(const rocprofiler_agent_v0_t* agent) {
  return register_gpu_agent(agent);
}

void svc_report_dropped(rocprofiler_buffer_tracing_kind_t kind, uint64_t count) {
  if (kind > 0 && kind < ROCPROFILER_BUFFER_TRACING_LAST) report_dropped(kind, count);
}

int svc_request_external_correlation_id(rocprofiler_external_correlation_id_request_kind_t kind,
                                        rocprofiler_tracing_operation_t op, uint64_t internal_id,
                                        rocprofiler_user_data_t* external) {
  if (external == nullptr) return 0;
  return request_external_id(current_thread(), kind, op, internal_id, external) ? 1 : 0;
}

const rocprof_core_services_t k_services = {
    sizeof(rocprof_core_services_t),
    ROCPROF_BACKEND_ABI_VERSION,
    0,
    svc_timestamp,
    svc_thread_id,
    svc_next_correlation_id,
    svc_current_ancestor,
    svc_external_correlation_id,
    svc_buffer_kind_enabled,
    svc_callback_kind_enabled,
    svc_emit_buffer_record,
    svc_api_enter,
    svc_api_exit,
    svc_register_agent,
    report_code_object,
    svc_report_dropped,
    warn_once,
    counters::counting_active,
    counters::counting_dispatch_begin,
    counters::counting_dispatch_end,
    svc_request_external_correlation_id,
    emit_pc_sampling_record,
    svc_api_enter_at,
};

}  // namespace

const rocprof_core_services_t& core_services() {
  return k_services;
}

}  // namespace rocprof::core
