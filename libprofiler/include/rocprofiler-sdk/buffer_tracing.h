// Buffer tracing: records written into buffers and delivered in batches on a callback thread.
// Every record struct starts with its size; NVIDIA extension fields come after the fields that
// rocprofiler-sdk defines, so code written against rocprofiler-sdk reads the same offsets.
// Every record's correlation id sits at offset 16 (after size, kind, operation).
#pragma once

#include "rocprofiler-sdk/fwd.h"
#include "rocprofiler-sdk/marker_api.h"
#include "rocprofiler-sdk/operations.h"

ROCPROFILER_EXTERN_C_INIT

typedef enum rocprofiler_buffer_tracing_kind_t {
  ROCPROFILER_BUFFER_TRACING_NONE = 0,
  ROCPROFILER_BUFFER_TRACING_HSA_CORE_API,
  ROCPROFILER_BUFFER_TRACING_HSA_AMD_EXT_API,
  ROCPROFILER_BUFFER_TRACING_HSA_IMAGE_EXT_API,
  ROCPROFILER_BUFFER_TRACING_HSA_FINALIZE_EXT_API,
  ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API,
  ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API,
  ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API,
  ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API,
  ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API,
  ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
  ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
  ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY,
  ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT,
  ROCPROFILER_BUFFER_TRACING_RCCL_API,
  ROCPROFILER_BUFFER_TRACING_OMPT,
  ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION,
  ROCPROFILER_BUFFER_TRACING_RUNTIME_INITIALIZATION,
  ROCPROFILER_BUFFER_TRACING_ROCDECODE_API,
  ROCPROFILER_BUFFER_TRACING_ROCJPEG_API,
  ROCPROFILER_BUFFER_TRACING_HIP_STREAM,
  ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT,
  ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT,
  ROCPROFILER_BUFFER_TRACING_ROCDECODE_API_EXT,
  ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_MIGRATE,
  ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_FAULT,
  ROCPROFILER_BUFFER_TRACING_KFD_EVENT_QUEUE,
  ROCPROFILER_BUFFER_TRACING_KFD_EVENT_UNMAP_FROM_GPU,
  ROCPROFILER_BUFFER_TRACING_KFD_EVENT_DROPPED_EVENTS,
  ROCPROFILER_BUFFER_TRACING_KFD_PAGE_MIGRATE,
  ROCPROFILER_BUFFER_TRACING_KFD_PAGE_FAULT,
  ROCPROFILER_BUFFER_TRACING_KFD_QUEUE,
  ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API,
  // --- NVIDIA extensions ---
  ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API,  ///< rocprofiler_buffer_tracing_cuda_api_record_t
  ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API,   ///< rocprofiler_buffer_tracing_cuda_api_record_t
  ROCPROFILER_BUFFER_TRACING_MEMORY_SET,        ///< rocprofiler_buffer_tracing_memory_set_record_t
  ROCPROFILER_BUFFER_TRACING_LAST,
} rocprofiler_buffer_tracing_kind_t;

/// Shared layout of API-call records (HSA, HIP, RCCL, rocJPEG, CUDA).
#define ROCPROFILER_API_RECORD_FIELDS          \
  uint64_t size;                               \
  rocprofiler_buffer_tracing_kind_t kind;      \
  rocprofiler_tracing_operation_t operation;   \
  rocprofiler_correlation_id_t correlation_id; \
  rocprofiler_timestamp_t start_timestamp;     \
  rocprofiler_timestamp_t end_timestamp;       \
  rocprofiler_thread_id_t thread_id;

typedef struct rocprofiler_buffer_tracing_api_record_t {
  ROCPROFILER_API_RECORD_FIELDS
} rocprofiler_buffer_tracing_api_record_t;

typedef rocprofiler_buffer_tracing_api_record_t rocprofiler_buffer_tracing_hsa_api_record_t;
typedef rocprofiler_buffer_tracing_api_record_t rocprofiler_buffer_tracing_hip_api_record_t;
typedef rocprofiler_buffer_tracing_api_record_t rocprofiler_buffer_tracing_rccl_api_record_t;
typedef rocprofiler_buffer_tracing_api_record_t rocprofiler_buffer_tracing_rocjpeg_api_record_t;

/// Marker kinds (CORE, CONTROL, NAME, CORE_RANGE). For CORE_RANGE: a thread range carries the
/// push's correlation id, start = push time, end = pop time, thread_id = the pushing thread; a
/// process range carries the start's correlation id and the starting thread (end_thread_id
/// says where it ended); a mark has start == end.
typedef struct rocprofiler_buffer_tracing_marker_api_record_t {
  ROCPROFILER_API_RECORD_FIELDS
  // --- extensions ---
  const char* message;  ///< interned, valid until process exit; NULL for pop/stop/pause/resume
  const char* domain;   ///< NVTX domain (interned) or NULL (ROCTx / default domain)
  rocprofiler_thread_id_t end_thread_id;  ///< thread of the pop / stop
  uint64_t range_id;  ///< process ranges: the id returned by the start; pause/resume: tid arg
} rocprofiler_buffer_tracing_marker_api_record_t;

/// Bytes of a CUDA API call's arguments a buffer record can carry (see below).
#define ROCPROFILER_CUDA_API_ARGS_CAPACITY 128

/// CUDA runtime / driver API calls; operation = CUPTI callback id. `args` holds a copy of the
/// call's CUPTI parameter struct (args_size bytes; 0 when the call has none or it is larger
/// than the capacity, 88 bytes at most with CUDA 13);
/// rocprofiler_iterate_buffer_tracing_record_args decodes it.
typedef struct rocprofiler_buffer_tracing_cuda_api_record_t {
  ROCPROFILER_API_RECORD_FIELDS
  // --- extensions ---
  int32_t return_code;                                    ///< cudaError_t / CUresult
  uint32_t args_size;                                     ///< bytes of args in use
  uint64_t args[ROCPROFILER_CUDA_API_ARGS_CAPACITY / 8];  ///< CUPTI's *_params struct, copied
} rocprofiler_buffer_tracing_cuda_api_record_t;

/// Exactly 128 bytes, as in rocprofiler-sdk.
typedef struct rocprofiler_kernel_dispatch_info_t {
  uint64_t size;
  rocprofiler_agent_id_t agent_id;
  rocprofiler_queue_id_t queue_id;  ///< CUDA: the CUDA context
  rocprofiler_kernel_id_t kernel_id;
  rocprofiler_dispatch_id_t dispatch_id;
  uint32_t private_segment_size;  ///< scratch per work-item
  uint32_t group_segment_size;    ///< LDS / shared memory per workgroup, static + dynamic
  rocprofiler_dim3_t workgroup_size;
  rocprofiler_dim3_t grid_size;  ///< in work-items (HSA semantics), also for CUDA
  uint8_t reserved_padding[56];
} rocprofiler_kernel_dispatch_info_t;

typedef struct rocprofiler_buffer_tracing_kernel_dispatch_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_kernel_dispatch_operation_t operation;
  rocprofiler_async_correlation_id_t correlation_id;
  rocprofiler_thread_id_t thread_id;  ///< the launching thread
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_kernel_dispatch_info_t dispatch_info;
  // --- extensions ---
  rocprofiler_stream_id_t stream_id;
  uint64_t graph_id;                ///< 0 if not launched from a graph
  uint64_t graph_node_id;           ///< 0 if not launched from a graph
  rocprofiler_dim3_t cluster_size;  ///< thread-block cluster dims (0 when not clustered)
  uint32_t dynamic_shared_memory_size;
} rocprofiler_buffer_tracing_kernel_dispatch_record_t;

typedef struct rocprofiler_buffer_tracing_memory_copy_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_memory_copy_operation_t operation;
  rocprofiler_async_correlation_id_t correlation_id;
  rocprofiler_thread_id_t thread_id;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_agent_id_t dst_agent_id;
  rocprofiler_agent_id_t src_agent_id;
  uint64_t bytes;
  rocprofiler_address_t dst_address;
  rocprofiler_address_t src_address;
  // --- extensions ---
  rocprofiler_stream_id_t stream_id;
  uint32_t src_memory_kind;  ///< rocprofiler_memory_kind_t
  uint32_t dst_memory_kind;  ///< rocprofiler_memory_kind_t
  uint64_t graph_id;
  uint64_t graph_node_id;
} rocprofiler_buffer_tracing_memory_copy_record_t;

typedef struct rocprofiler_buffer_tracing_memory_allocation_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_memory_allocation_operation_t operation;
  rocprofiler_correlation_id_t correlation_id;
  rocprofiler_thread_id_t thread_id;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_agent_id_t agent_id;
  rocprofiler_address_t address;
  uint64_t allocation_size;
  // --- extensions ---
  uint32_t memory_kind;  ///< rocprofiler_memory_kind_t
  uint32_t reserved;
  rocprofiler_stream_id_t stream_id;
} rocprofiler_buffer_tracing_memory_allocation_record_t;

/// Extension: memset activity.
typedef struct rocprofiler_buffer_tracing_memory_set_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_memory_set_operation_t operation;
  rocprofiler_async_correlation_id_t correlation_id;
  rocprofiler_thread_id_t thread_id;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  rocprofiler_agent_id_t agent_id;
  rocprofiler_address_t address;
  uint64_t bytes;
  uint32_t value;
  uint32_t memory_kind;  ///< rocprofiler_memory_kind_t
  rocprofiler_stream_id_t stream_id;
  uint64_t graph_id;
  uint64_t graph_node_id;
} rocprofiler_buffer_tracing_memory_set_record_t;

typedef struct rocprofiler_buffer_tracing_scratch_memory_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_scratch_memory_operation_t operation;
  rocprofiler_correlation_id_t correlation_id;
  rocprofiler_agent_id_t agent_id;
  rocprofiler_queue_id_t queue_id;
  rocprofiler_thread_id_t thread_id;
  rocprofiler_timestamp_t start_timestamp;
  rocprofiler_timestamp_t end_timestamp;
  uint32_t flags;
  uint32_t reserved;
  uint64_t allocation_size;
} rocprofiler_buffer_tracing_scratch_memory_record_t;

typedef struct rocprofiler_buffer_tracing_runtime_initialization_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  rocprofiler_runtime_initialization_operation_t operation;
  rocprofiler_correlation_id_t correlation_id;
  rocprofiler_thread_id_t thread_id;
  rocprofiler_timestamp_t timestamp;
  uint64_t version;
  uint64_t instance;
} rocprofiler_buffer_tracing_runtime_initialization_record_t;

typedef struct rocprofiler_buffer_tracing_correlation_id_retirement_record_t {
  uint64_t size;
  rocprofiler_buffer_tracing_kind_t kind;
  int32_t reserved;
  rocprofiler_timestamp_t timestamp;
  uint64_t internal_correlation_id;
} rocprofiler_buffer_tracing_correlation_id_retirement_record_t;

/// Initialisation only. operations = NULL, operations_count = 0: every operation of the kind.
/// Several kinds may share one buffer; a kind may be configured once per context.
ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_buffer_tracing_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_tracing_kind_t kind,
    const rocprofiler_tracing_operation_t* operations, size_t operations_count,
    rocprofiler_buffer_id_t buffer_id);

/// Names are static strings, e.g. "MEMORY_COPY" / "MEMORY_COPY_HOST_TO_DEVICE".
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_buffer_tracing_kind_name(
    rocprofiler_buffer_tracing_kind_t kind, const char** name, uint64_t* name_len);
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_buffer_tracing_kind_operation_name(
    rocprofiler_buffer_tracing_kind_t kind, rocprofiler_tracing_operation_t operation,
    const char** name, uint64_t* name_len);

/// Called once per argument of a buffered API record, in declaration order (see
/// rocprofiler_callback_tracing_operation_args_cb_t; pointers are never followed here).
typedef int (*rocprofiler_buffer_tracing_operation_args_cb_t)(
    rocprofiler_buffer_tracing_kind_t kind, rocprofiler_tracing_operation_t operation,
    uint32_t arg_number, const void* const arg_value_addr, int32_t arg_indirection_count,
    const char* arg_type, const char* arg_name, const char* arg_value_str, void* data);

/// Iterates over the arguments a buffer record carries: CUDA runtime and driver API records
/// (their copied CUPTI parameter structs, decoded by the CUDA backend). Pointer arguments are
/// shown as addresses: what they pointed to is gone by the time a record is delivered. Call it
/// from the buffer callback, while the record is valid. ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND:
/// a kind whose records carry no arguments.
ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_buffer_tracing_record_args(
    rocprofiler_record_header_t record, rocprofiler_buffer_tracing_operation_args_cb_t callback,
    void* user_data) ROCPROFILER_NONNULL(2);

typedef int (*rocprofiler_buffer_tracing_kind_cb_t)(rocprofiler_buffer_tracing_kind_t kind,
                                                    void* data);
typedef int (*rocprofiler_buffer_tracing_kind_operation_cb_t)(
    rocprofiler_buffer_tracing_kind_t kind, rocprofiler_tracing_operation_t operation, void* data);
/// Iteration stops early when the callback returns non-zero.
ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_buffer_tracing_kinds(
    rocprofiler_buffer_tracing_kind_cb_t callback, void* data) ROCPROFILER_NONNULL(1);
ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_buffer_tracing_kind_operations(
    rocprofiler_buffer_tracing_kind_t kind, rocprofiler_buffer_tracing_kind_operation_cb_t callback,
    void* data) ROCPROFILER_NONNULL(2);

ROCPROFILER_EXTERN_C_FINI
