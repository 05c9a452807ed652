// rocprofiler_configure_external_correlation_id_request_service and the requests themselves.
// The services are fixed after initialisation and the active set is one mask recomputed when a
// context starts or stops (contexts_changed), so a request needs no lock.
#include "external_request.hpp"

#include <cstring>

#include "context.hpp"
#include "guarded.hpp"
#include "registration.hpp"
#include "thread_state.hpp"

namespace rocprof::core {
namespace {

constexpr const char* request_kind_names[] = {"NONE",
                                              "HSA_CORE_API",
                                              "HSA_AMD_EXT_API",
                                              "HSA_IMAGE_EXT_API",
                                              "HSA_FINALIZE_EXT_API",
                                              "HIP_RUNTIME_API",
                                              "HIP_COMPILER_API",
                                              "MARKER_CORE_API",
                                              "MARKER_CONTROL_API",
                                              "MARKER_NAME_API",
                                              "MEMORY_COPY",
                                              "KERNEL_DISPATCH",
                                              "SCRATCH_MEMORY",
                                              "RCCL_API",
                                              "OMPT",
                                              "MEMORY_ALLOCATION",
                                              "ROCDECODE_API",
                                              "ROCJPEG_API",
                                              "MARKER_CORE_RANGE_API",
                                              "CUDA_RUNTIME_API",
                                              "CUDA_DRIVER_API",
                                              "MEMORY_SET"};
static_assert(sizeof(request_kind_names) / sizeof(request_kind_names[0]) ==
                  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST,
              "one name per request kind");

constexpr uint64_t all_request_kinds =
    ((uint64_t{1} << ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST) - 1) & ~uint64_t{1};

}  // namespace

rocprofiler_external_correlation_id_request_kind_t request_kind_of(
    rocprofiler_callback_tracing_kind_t kind) {
  switch (kind) {
    case ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API:
      return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_CORE_API;
    case ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API:
      return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_AMD_EXT_API;
    case ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API:
      return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_IMAGE_EXT_API;
    case ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API:
      return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_FINALIZE_EXT_API;
    case ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API:
      return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HIP_RUNTIME_API;
    case ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API:
      return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HIP_COMPILER_API;
    case ROCPROFILER_CALLBACK_TRACING_RCCL_API:
      return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_RCCL_API;
    case ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API:
      return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_ROCDECODE_API;
    case ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API:
      return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_ROCJPEG_API;
    case ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API:
      return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_CUDA_RUNTIME_API;
    case ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API:
      return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_CUDA_DRIVER_API;
    default:
      return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE;
  }
}

bool request_external_id(thread_state* st, rocprofiler_external_correlation_id_request_kind_t kind,
                         rocprofiler_tracing_operation_t operation, uint64_t internal_id,
                         rocprofiler_user_data_t* external) {
  if (kind <= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE ||
      kind >= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST || st == nullptr)
    return false;
  const uint64_t bit = uint64_t{1} << kind;
  if ((g_external_request_kinds.load(std::memory_order_relaxed) & bit) == 0) return false;
  const uint32_t n = g_num_contexts.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < n; ++i) {
    const context* ctx = g_contexts[i];
    const external_request_service& svc = ctx->external_requests;
    if (svc.callback == nullptr || (svc.kinds & bit) == 0 ||
        !ctx->active.load(std::memory_order_relaxed))
      continue;
    rocprofiler_user_data_t value{};
    if (svc.callback(st->tid, rocprofiler_context_id_t{context_handle(i)}, kind, operation,
                     internal_id, &value, svc.data) == 0) {
      *external = value;
      return true;
    }
  }
  return false;
}

}  // namespace rocprof::core

extern "C" {

using namespace rocprof::core;

ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_external_correlation_id_request_service(
    rocprofiler_context_id_t context_id,
    const rocprofiler_external_correlation_id_request_kind_t* kinds, size_t kinds_count,
    rocprofiler_external_correlation_id_request_cb_t callback, void* callback_args) {
  return guarded(__func__, [&] {
    if (!configuration_open()) return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    context* ctx = find_context(context_id);
    if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    uint64_t wanted = kinds == nullptr || kinds_count == 0 ? all_request_kinds : 0;
    for (size_t i = 0; kinds != nullptr && i < kinds_count; ++i) {
      if (kinds[i] <= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE ||
          kinds[i] >= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST)
        return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
      wanted |= uint64_t{1} << kinds[i];
    }
    std::lock_guard<std::recursive_mutex> lock(config_mutex());
    external_request_service& svc = ctx->external_requests;
    if (svc.callback != nullptr) return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
    svc.kinds = wanted;
    svc.data = callback_args;
    svc.callback = callback;
    if (ctx->active.load()) contexts_changed();
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_external_correlation_id_request_kind_name(
    rocprofiler_external_correlation_id_request_kind_t kind, const char** name,
    uint64_t* name_len) {
  return guarded(__func__, [&] {
    if (kind <= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE ||
        kind >= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST)
      return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
    const char* text = request_kind_names[kind];
    if (name != nullptr) *name = text;
    if (name_len != nullptr) *name_len = std::strlen(text);
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

}  // extern "C"
