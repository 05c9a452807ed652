#include "backend_loader.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "agents.hpp"
#include "clock.hpp"
#include "code_objects.hpp"
#include "context.hpp"
#include "dispatch.hpp"
#include "guarded.hpp"
#include "registration.hpp"
#include "rocprofiler-sdk/rocprofiler.h"

namespace rocprof::core {
namespace {

struct loaded_backend {
  rocprof_backend_t api{};
  bool started = false;
};

std::mutex& backends_mutex() {
  static auto* m = new std::mutex();
  return *m;
}
std::map<std::string, rocprofiler_status_t>& load_outcomes() {
  static auto* m = new std::map<std::string, rocprofiler_status_t>();
  return *m;
}
std::vector<loaded_backend*>& backends() {
  static auto* v = new std::vector<loaded_backend*>();
  return *v;
}

// ---- core services handed to backends ----

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

void svc_api_enter(rocprof_api_scope_t* scope, rocprofiler_callback_tracing_kind_t kind,
                   rocprofiler_tracing_operation_t op, void* payload) {
  thread_state* st = current_thread();
  scope->size = sizeof(*scope);
  scope->kind = kind;
  scope->operation = op;
  scope->num_contexts = 0;
  scope->start_timestamp = now_ns();
  scope->correlation_id.internal = next_correlation_id(st);
  scope->correlation_id.external = svc_external_correlation_id(rocprofiler_context_id_t{0});
  scope->correlation_id.ancestor = st != nullptr ? st->current_api : 0;
  scope->previous_api = scope->correlation_id.ancestor;
  if (st == nullptr) return;
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

const rocprof_core_services_t g_services = {
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
};

std::string backend_directory() {
  if (const char* dir = std::getenv("ROCPROF_BACKEND_DIR"); dir != nullptr && dir[0] != '\0')
    return dir;
  Dl_info self{};
  if (dladdr(&g_services, &self) == 0 || self.dli_fname == nullptr) return "rocprofiler-sdk";
  std::string path(self.dli_fname);
  const size_t slash = path.rfind('/');
  return (slash == std::string::npos ? std::string(".") : path.substr(0, slash)) +
         "/rocprofiler-sdk";
}

}  // namespace

void warn_once(const char* key, const char* message) {
  static std::mutex m;
  static auto* seen = new std::set<std::string>();
  std::lock_guard<std::mutex> lock(m);
  if (key == nullptr || message == nullptr || !seen->insert(key).second) return;
  std::fprintf(stderr, "rocprofiler: %s\n", message);
}

rocprofiler_status_t load_backend(const char* name) {
  if (name == nullptr || name[0] == '\0') return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> lock(backends_mutex());
  auto found = load_outcomes().find(name);
  if (found != load_outcomes().end()) return found->second;
  const std::string path = backend_directory() + "/librocprofiler-sdk-" + name + ".so";
  rocprofiler_status_t status = ROCPROFILER_STATUS_ERROR_BACKEND_NOT_LOADED;
  std::string why;
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    why = err != nullptr ? err : "dlopen failed";
  } else if (auto reg = reinterpret_cast<rocprof_backend_register_fn_t>(
                 dlsym(handle, "rocprof_backend_register"));
             reg == nullptr) {
    why = "no rocprof_backend_register in " + path;
  } else {
    auto* backend = new loaded_backend();
    backend->api.size = sizeof(backend->api);
    const rocprofiler_status_t rc = reg(&g_services, &backend->api);
    if (rc == ROCPROFILER_STATUS_SUCCESS) {
      backends().push_back(backend);
      status = ROCPROFILER_STATUS_SUCCESS;
    } else {
      why = std::string("its registration failed: ") + rocprofiler_get_status_string(rc);
      delete backend;
    }
  }
  load_outcomes().emplace(name, status);
  if (status != ROCPROFILER_STATUS_SUCCESS) {
    const std::string message = std::string("backend '") + name +
                                "' is not available, its domains will not be traced (" + why + ")";
    warn_once((std::string("backend:") + name).c_str(), message.c_str());
  }
  return status;
}

const char* backend_for_buffer_kind(rocprofiler_buffer_tracing_kind_t kind) {
  switch (kind) {
    case ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API:
    case ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API:
    case ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH:
    case ROCPROFILER_BUFFER_TRACING_MEMORY_COPY:
    case ROCPROFILER_BUFFER_TRACING_MEMORY_SET:
    case ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION:
      return "cuda";
    default:
      return nullptr;
  }
}

const char* backend_for_callback_kind(rocprofiler_callback_tracing_kind_t kind) {
  switch (kind) {
    case ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API:
    case ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API:
    case ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH:
    case ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY:
    case ROCPROFILER_CALLBACK_TRACING_MEMORY_SET:
    case ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION:
      return "cuda";
    default:
      return nullptr;
  }
}

void notify_backends(const rocprof_enabled_kinds_t& kinds) {
  bool any = kinds.counters != 0;
  for (size_t w = 0; w < ROCPROF_BACKEND_KIND_WORDS; ++w)
    any = any || kinds.buffer_kinds[w] != 0 || kinds.callback_kinds[w] != 0;
  std::lock_guard<std::mutex> lock(backends_mutex());
  for (loaded_backend* b : backends()) {
    if (any && b->api.start != nullptr) {
      b->api.start(b->api.backend_data, &kinds);
      b->started = true;
    } else if (!any && b->started) {
      if (b->api.stop != nullptr) b->api.stop(b->api.backend_data);
      b->started = false;
    }
  }
}

void flush_backends() {
  std::lock_guard<std::mutex> lock(backends_mutex());
  for (loaded_backend* b : backends())
    if (b->api.flush != nullptr) b->api.flush(b->api.backend_data);
}

void shutdown_backends() {
  std::lock_guard<std::mutex> lock(backends_mutex());
  for (loaded_backend* b : backends()) {
    if (b->started && b->api.stop != nullptr) b->api.stop(b->api.backend_data);
    b->started = false;
    if (b->api.shutdown != nullptr) b->api.shutdown(b->api.backend_data);
  }
  backends().clear();  // the objects are leaked: a late callback may still read them
}

const char* backend_operation_name(bool is_buffer_kind, uint32_t kind,
                                   rocprofiler_tracing_operation_t op) {
  std::lock_guard<std::mutex> lock(backends_mutex());
  for (loaded_backend* b : backends()) {
    if (b->api.operation_name == nullptr) continue;
    if (const char* name =
            b->api.operation_name(b->api.backend_data, is_buffer_kind ? 1 : 0, kind, op))
      return name;
  }
  return nullptr;
}

int32_t backend_operation_count(bool is_buffer_kind, uint32_t kind) {
  std::lock_guard<std::mutex> lock(backends_mutex());
  for (loaded_backend* b : backends()) {
    if (b->api.operation_count == nullptr) continue;
    const int32_t n = b->api.operation_count(b->api.backend_data, is_buffer_kind ? 1 : 0, kind);
    if (n > 0) return n;
  }
  return 0;
}

}  // namespace rocprof::core

extern "C" ROCPROFILER_API rocprofiler_status_t rocprof_backend_request(const char* name) {
  using namespace rocprof::core;
  return guarded(__func__, [&] {
    ensure_initialized();
    const rocprofiler_status_t status = load_backend(name);
    if (status == ROCPROFILER_STATUS_SUCCESS) contexts_changed();  // start it if kinds are on
    return status;
  });
}
