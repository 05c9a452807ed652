// External correlation ids: a per-thread, per-context stack of user values copied into the
// correlation_id.external field of every record made on that thread.
#pragma once

#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/// thread_id must be the calling thread's id (rocprofiler_get_thread_id); other threads'
/// stacks cannot be changed (ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND), which keeps reading
/// the stack on the hot path lock-free.
ROCPROFILER_API rocprofiler_status_t rocprofiler_push_external_correlation_id(
    rocprofiler_context_id_t context, rocprofiler_thread_id_t thread_id,
    rocprofiler_user_data_t external_correlation_id);

/// Pops the innermost value into *external_correlation_id (may be NULL).
/// ROCPROFILER_STATUS_ERROR if the stack was empty.
ROCPROFILER_API rocprofiler_status_t rocprofiler_pop_external_correlation_id(
    rocprofiler_context_id_t context, rocprofiler_thread_id_t thread_id,
    rocprofiler_user_data_t* external_correlation_id);

/// What a tool may be asked an external correlation id for (the order is rocprofiler-sdk's;
/// NVIDIA extensions follow it).
typedef enum rocprofiler_external_correlation_id_request_kind_t {
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE = 0,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_CORE_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_AMD_EXT_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_IMAGE_EXT_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_FINALIZE_EXT_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HIP_RUNTIME_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HIP_COMPILER_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CORE_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CONTROL_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_NAME_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_COPY,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_SCRATCH_MEMORY,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_RCCL_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_OMPT,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_ALLOCATION,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_ROCDECODE_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_ROCJPEG_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CORE_RANGE_API,
  // --- NVIDIA extensions ---
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_CUDA_RUNTIME_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_CUDA_DRIVER_API,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_SET,
  ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST,
} rocprofiler_external_correlation_id_request_kind_t;

/// Asks the tool for the external correlation id of one traced call or of the GPU work one
/// call launched, on the thread making that call, before its records exist. thread_id, context
/// and kind say who asks; operation is the kind's operation (the API call's id; for kernel
/// dispatches, memory copies and sets the launching API call's id); internal_corr_id is the
/// internal correlation id its records will carry. Return 0 after setting
/// *external_corr_id_value, non-zero to keep the id pushed on the thread (if any).
typedef int (*rocprofiler_external_correlation_id_request_cb_t)(
    rocprofiler_thread_id_t thread_id, rocprofiler_context_id_t context_id,
    rocprofiler_external_correlation_id_request_kind_t kind,
    rocprofiler_tracing_operation_t operation, uint64_t internal_corr_id,
    rocprofiler_user_data_t* external_corr_id_value, void* data);

/// Initialisation only. kinds = NULL (kinds_count 0): every kind. Once per context
/// (ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED otherwise). Requests are made while the
/// context is active, for the kinds this build records: KERNEL_DISPATCH, MEMORY_COPY,
/// MEMORY_SET, MEMORY_ALLOCATION (one request per launching call, whichever of them it
/// launches) and CUDA_RUNTIME_API / CUDA_DRIVER_API (one per call). The value answered for GPU
/// work is kept per launch, so with several contexts asking, the first context's answer is the
/// one every context's records of that work carry.
ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_external_correlation_id_request_service(
    rocprofiler_context_id_t context_id,
    const rocprofiler_external_correlation_id_request_kind_t* kinds, size_t kinds_count,
    rocprofiler_external_correlation_id_request_cb_t callback, void* callback_args)
    ROCPROFILER_NONNULL(4);

/// A static name, e.g. "KERNEL_DISPATCH"; ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND otherwise.
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_external_correlation_id_request_kind_name(
    rocprofiler_external_correlation_id_request_kind_t kind, const char** name, uint64_t* name_len);

ROCPROFILER_EXTERN_C_FINI
