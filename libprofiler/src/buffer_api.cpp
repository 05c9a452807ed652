// C entry points of buffer.h.
#include <unistd.h>

#include "backend_loader.hpp"
#include "buffer.hpp"
#include "callback_thread.hpp"
#include "context.hpp"
#include "guarded.hpp"
#include "registration.hpp"

extern "C" {

using rocprof::core::guarded;

ROCPROFILER_API rocprofiler_status_t rocprofiler_create_buffer(
    rocprofiler_context_id_t context, size_t size, size_t watermark,
    rocprofiler_buffer_policy_t policy, rocprofiler_buffer_tracing_cb_t callback,
    void* callback_data, rocprofiler_buffer_id_t* buffer_id) {
  using namespace rocprof::core;
  return guarded(__func__, [&] {
    if (!configuration_open()) return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    if (find_context(context) == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    if (size == 0 || (policy != ROCPROFILER_BUFFER_POLICY_DISCARD &&
                      policy != ROCPROFILER_BUFFER_POLICY_LOSSLESS))
      return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    std::lock_guard<std::recursive_mutex> lock(config_mutex());
    const uint32_t n = g_num_buffers.load();
    if (n >= max_buffers) return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
    const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    auto* b = new buffer();
    b->index = n;
    b->context = context;
    b->capacity = (size + page - 1) / page * page;
    b->watermark = watermark > b->capacity ? b->capacity : watermark;
    b->policy = policy;
    b->callback = callback;
    b->callback_data = callback_data;
    callback_thread* t = default_callback_thread();
    if (t == nullptr) {
      delete b;
      return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    g_buffers[n] = b;
    g_num_buffers.store(n + 1, std::memory_order_release);
    assign_buffer(b, t);
    buffer_id->handle = buffer_handle(n);
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_flush_buffer(rocprofiler_buffer_id_t buffer_id) {
  using namespace rocprof::core;
  return guarded(__func__, [&] {
    buffer* b = find_buffer(buffer_id);
    if (b == nullptr) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    if (b->destroyed.load()) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    flush_backends();  // records still inside a backend (e.g. CUPTI) first
    return flush_buffer(b);
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_destroy_buffer(rocprofiler_buffer_id_t buffer_id) {
  using namespace rocprof::core;
  return guarded(__func__, [&] {
    buffer* b = find_buffer(buffer_id);
    if (b == nullptr || b->destroyed.exchange(true))
      return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    dispatch_changed();
    // The buffer object stays (threads may still hold its lanes); its data is discarded.
    buffer_consume(b, false);
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

}  // extern "C"
