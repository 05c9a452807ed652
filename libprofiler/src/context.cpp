// Contexts, their services, and the C entry points of context.h, buffer_tracing.h and
// callback_tracing.h that configure services.
#include "context.hpp"

#include "backend_loader.hpp"
#include "buffer.hpp"
#include "code_objects.hpp"
#include "counters/device_sampling.hpp"
#include "counters/dispatch_counting.hpp"
#include "guarded.hpp"
#include "pc_sampling.hpp"
#include "registration.hpp"

namespace rocprof::core {

void op_filter::set(const rocprofiler_tracing_operation_t* ops, size_t count) {
  all_ = ops == nullptr || count == 0;
  bits_.clear();
  for (size_t i = 0; i < count && ops != nullptr; ++i) {
    if (ops[i] < 0) continue;
    const auto bit = static_cast<size_t>(ops[i]);
    if (bits_.size() <= bit / 64) bits_.resize(bit / 64 + 1, 0);
    bits_[bit / 64] |= uint64_t{1} << (bit % 64);
  }
}

context* find_context(rocprofiler_context_id_t id) {
  const uint32_t n = g_num_contexts.load(std::memory_order_acquire);
  if (id.handle == 0 || id.handle > n) return nullptr;
  return g_contexts[id.handle - 1];
}

void contexts_changed() {
  std::lock_guard<std::recursive_mutex> lock(config_mutex());
  rocprof_enabled_kinds_t kinds{};
  kinds.size = sizeof(kinds);
  uint64_t requests = 0;
  const uint32_t n = g_num_contexts.load();
  for (uint32_t i = 0; i < n; ++i) {
    const context* ctx = g_contexts[i];
    if (!ctx->active.load()) continue;
    for (uint32_t k = 0; k < ROCPROFILER_BUFFER_TRACING_LAST; ++k)
      if (ctx->buffers[k].target != nullptr) kinds.buffer_kinds[k / 64] |= uint64_t{1} << (k % 64);
    for (uint32_t k = 0; k < ROCPROFILER_CALLBACK_TRACING_LAST; ++k)
      if (ctx->callbacks[k].callback != nullptr)
        kinds.callback_kinds[k / 64] |= uint64_t{1} << (k % 64);
    if (ctx->counters) kinds.counters = 1;
    requests |= ctx->external_requests.kinds;
  }
  g_external_request_kinds.store(requests, std::memory_order_relaxed);
  kinds.external_request_kinds = requests;
  add_pc_sampling_requests(kinds);
  for (size_t w = 0; w < ROCPROF_BACKEND_KIND_WORDS; ++w) {
    g_buffer_kinds[w].store(kinds.buffer_kinds[w], std::memory_order_relaxed);
    g_callback_kinds[w].store(kinds.callback_kinds[w], std::memory_order_relaxed);
  }
  counters::refresh_counting_context();
  dispatch_changed();
  notify_backends(kinds);
}

void stop_all_contexts() {
  const uint32_t n = g_num_contexts.load();
  for (uint32_t i = 0; i < n; ++i)
    if (g_contexts[i]->active.exchange(false)) counters::stop_device_sampling(i);
  contexts_changed();
}

void stop_tool_contexts(uint32_t tool) {
  const uint32_t n = g_num_contexts.load();
  bool stopped = false;
  for (uint32_t i = 0; i < n; ++i) {
    if (g_contexts[i]->tool != tool || !g_contexts[i]->active.exchange(false)) continue;
    counters::stop_device_sampling(i);
    stopped = true;
  }
  if (stopped) contexts_changed();
}

void invalidate_tool_contexts(uint32_t tool) {
  const uint32_t n = g_num_contexts.load();
  for (uint32_t i = 0; i < n; ++i) {
    if (g_contexts[i]->tool != tool) continue;
    g_contexts[i]->active.store(false);
    g_contexts[i]->valid.store(false);
  }
  contexts_changed();
}

}  // namespace rocprof::core

extern "C" {

using namespace rocprof::core;

ROCPROFILER_API rocprofiler_status_t
rocprofiler_create_context(rocprofiler_context_id_t* context_id) {
  return guarded(__func__, [&] {
    if (context_id->handle != 0) return ROCPROFILER_STATUS_ERROR_CONTEXT_ID_NOT_ZERO;
    if (!configuration_open()) return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    std::lock_guard<std::recursive_mutex> lock(config_mutex());
    const uint32_t n = g_num_contexts.load();
    if (n >= max_contexts) return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
    auto* ctx = new context();
    ctx->index = n;
    ctx->tool = current_tool();
    g_contexts[n] = ctx;
    g_num_contexts.store(n + 1, std::memory_order_release);
    context_id->handle = context_handle(n);
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_start_context(rocprofiler_context_id_t context_id) {
  return guarded(__func__, [&] {
    context* ctx = find_context(context_id);
    if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    if (!ctx->valid.load()) return ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID;
    if (finalizing()) return ROCPROFILER_STATUS_ERROR_FINALIZED;
    bool started = false;
    {
      std::lock_guard<std::recursive_mutex> lock(config_mutex());
      // Only one context may count dispatches at a time (as rocprofiler-sdk).
      if (!ctx->active.load() && counters::counting_conflict(*ctx))
        return ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT;
      started = !ctx->active.exchange(true);
    }
    if (started) {
      contexts_changed();
      replay_code_objects(ctx);
      // Device counting and SPM start with the context; a refusal (passes, interval, agent
      // taken) leaves the context stopped.
      const rocprofiler_status_t sampling = counters::start_device_sampling(ctx->index);
      if (sampling != ROCPROFILER_STATUS_SUCCESS) {
        if (ctx->active.exchange(false)) contexts_changed();
        return sampling;
      }
    }
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_stop_context(rocprofiler_context_id_t context_id) {
  return guarded(__func__, [&] {
    context* ctx = find_context(context_id);
    if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    if (ctx->active.exchange(false)) {
      counters::stop_device_sampling(ctx->index);
      contexts_changed();
    }
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_context_is_active(rocprofiler_context_id_t context_id, int* status) {
  return guarded(__func__, [&] {
    context* ctx = find_context(context_id);
    if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    *status = ctx->active.load() ? 1 : 0;
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_context_is_valid(rocprofiler_context_id_t context_id, int* status) {
  return guarded(__func__, [&] {
    context* ctx = find_context(context_id);
    *status = (ctx != nullptr && ctx->valid.load()) ? 1 : 0;
    return ctx == nullptr ? ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND : ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_buffer_tracing_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_tracing_kind_t kind,
    const rocprofiler_tracing_operation_t* operations, size_t operations_count,
    rocprofiler_buffer_id_t buffer_id) {
  return guarded(__func__, [&] {
    if (!configuration_open()) return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    context* ctx = find_context(context_id);
    if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    if (kind <= ROCPROFILER_BUFFER_TRACING_NONE || kind >= ROCPROFILER_BUFFER_TRACING_LAST)
      return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
    buffer* b = find_buffer(buffer_id);
    if (b == nullptr) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    std::lock_guard<std::recursive_mutex> lock(config_mutex());
    buffer_service& svc = ctx->buffers[kind];
    if (svc.target != nullptr) return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
    svc.ops.set(operations, operations_count);
    svc.target = b;
    g_buffer_kind_contexts[kind].fetch_or(uint64_t{1} << ctx->index, std::memory_order_release);
    if (const char* backend = backend_for_buffer_kind(kind)) load_backend(backend);
    if (ctx->active.load()) contexts_changed();
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_callback_tracing_service(
    rocprofiler_context_id_t context_id, rocprofiler_callback_tracing_kind_t kind,
    const rocprofiler_tracing_operation_t* operations, size_t operations_count,
    rocprofiler_callback_tracing_cb_t callback, void* callback_args) {
  return guarded(__func__, [&] {
    if (!configuration_open()) return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    context* ctx = find_context(context_id);
    if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    if (kind <= ROCPROFILER_CALLBACK_TRACING_NONE || kind >= ROCPROFILER_CALLBACK_TRACING_LAST)
      return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
    std::lock_guard<std::recursive_mutex> lock(config_mutex());
    callback_service& svc = ctx->callbacks[kind];
    if (svc.callback != nullptr) return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
    svc.ops.set(operations, operations_count);
    svc.data = callback_args;
    svc.callback = callback;
    g_callback_kind_contexts[kind].fetch_or(uint64_t{1} << ctx->index, std::memory_order_release);
    if (const char* backend = backend_for_callback_kind(kind)) load_backend(backend);
    if (ctx->active.load()) contexts_changed();
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

}  // extern "C"
