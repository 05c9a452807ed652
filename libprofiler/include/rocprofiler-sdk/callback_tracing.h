// Callback tracing: synchronous ENTER/EXIT callbacks on the thread that makes the call.
#pragma once

#include "rocprofiler-sdk/fwd.h"
#include "rocprofiler-sdk/marker_api.h"
#include "rocprofiler-sdk/operations.h"

ROCPROFILER_EXTERN_C_INIT

typedef enum rocprofiler_callback_tracing_kind_t {
  ROCPROFILER_CALLBACK_TRACING_NONE = 0,
  ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
  ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API,
  ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API,
  ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API,
  ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
  ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API,
  ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
  ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API,
  ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API,
  ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
  ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY,
  ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
  ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY,
  ROCPROFILER_CALLBACK_TRACING_RCCL_API,
  ROCPROFILER_CALLBACK_TRACING_OMPT,
  ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION,
  ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION,
  ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API,
  ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API,
  ROCPROFILER_CALLBACK_TRACING_HIP_STREAM,
  ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API,
  // --- NVIDIA extensions ---
  ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API,  ///< operations: CUPTI runtime callback ids
  ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API,   ///< operations: CUPTI driver callback ids
  ROCPROFILER_CALLBACK_TRACING_MEMORY_SET,        ///< rocprofiler_memory_set_operation_t
  ROCPROFILER_CALLBACK_TRACING_LAST,
} rocprofiler_callback_tracing_kind_t;

/// What a callback receives. payload depends on kind: marker kinds ->
/// rocprofiler_callback_tracing_marker_api_data_t; CODE_OBJECT -> the code object structs
/// below; CUDA API kinds -> rocprofiler_callback_tracing_cuda_api_data_t.
typedef struct rocprofiler_callback_tracing_record_t {
  rocprofiler_context_id_t context_id;
  rocprofiler_thread_id_t thread_id;
  rocprofiler_correlation_id_t correlation_id;
  rocprofiler_callback_tracing_kind_t kind;
  rocprofiler_tracing_operation_t operation;
  rocprofiler_callback_phase_t phase;
  void* payload;
} rocprofiler_callback_tracing_record_t;

/// Runs synchronously on the thread making the call, at ENTER and at EXIT. *user_data is
/// zero at ENTER and kept, per context, until the EXIT of the same call.
typedef void (*rocprofiler_callback_tracing_cb_t)(rocprofiler_callback_tracing_record_t record,
                                                  rocprofiler_user_data_t* user_data,
                                                  void* callback_data);

/// Initialisation only. operations = NULL, operations_count = 0: every operation of the kind.
/// A kind may be configured once per context (else SERVICE_ALREADY_CONFIGURED).
ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_callback_tracing_service(
    rocprofiler_context_id_t context_id, rocprofiler_callback_tracing_kind_t kind,
    const rocprofiler_tracing_operation_t* operations, size_t operations_count,
    rocprofiler_callback_tracing_cb_t callback, void* callback_args) ROCPROFILER_NONNULL(5);

/// Names are static strings, e.g. "MARKER_CORE_RANGE_API" / "roctxThreadRangeA".
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_callback_tracing_kind_name(
    rocprofiler_callback_tracing_kind_t kind, const char** name, uint64_t* name_len);
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_callback_tracing_kind_operation_name(
    rocprofiler_callback_tracing_kind_t kind, rocprofiler_tracing_operation_t operation,
    const char** name, uint64_t* name_len);

/// Called once per argument of a traced call, in declaration order (arg_number from 0).
/// arg_value_addr: where the argument's value is (valid during the call only);
/// arg_indirection_count: pointer levels of its type (int: 0, int*: 1, int**: 2); arg_type: the
/// type as the API declares it (e.g. "size_t*", "enum cudaMemcpyKind"); arg_name: the
/// parameter's name; arg_value_str: the value as text (pointers in hex; a pointer to a number
/// or a C string shows what it points to when it was dereferenced); arg_dereference_count: how
/// many times the pointer was followed for arg_value_str. Non-zero stops the iteration.
typedef int (*rocprofiler_callback_tracing_operation_args_cb_t)(
    rocprofiler_callback_tracing_kind_t kind, rocprofiler_tracing_operation_t operation,
    uint32_t arg_number, const void* const arg_value_addr, int32_t arg_indirection_count,
    const char* arg_type, const char* arg_name, const char* arg_value_str,
    int32_t arg_dereference_count, void* data);

/// Iterates over the arguments of the call `record` (from a callback-tracing callback) belongs
/// to: the marker kinds (their args union) and the CUDA runtime and driver API kinds (CUPTI's
/// parameter structs, through the CUDA backend). max_dereference_count bounds how many times a
/// pointer argument is followed to show its value: at ENTER an output parameter may not be set
/// yet, so 1 is the safe maximum there. Runs synchronously on the calling thread.
/// ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND: a kind whose arguments are not known.
ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_callback_tracing_kind_operation_args(
    rocprofiler_callback_tracing_record_t record,
    rocprofiler_callback_tracing_operation_args_cb_t callback, int32_t max_dereference_count,
    void* user_data) ROCPROFILER_NONNULL(2);

typedef int (*rocprofiler_callback_tracing_kind_cb_t)(rocprofiler_callback_tracing_kind_t kind,
                                                      void* data);
typedef int (*rocprofiler_callback_tracing_kind_operation_cb_t)(
    rocprofiler_callback_tracing_kind_t kind, rocprofiler_tracing_operation_t operation,
    void* data);
/// Iteration stops early when the callback returns non-zero.
ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_callback_tracing_kinds(
    rocprofiler_callback_tracing_kind_cb_t callback, void* data) ROCPROFILER_NONNULL(1);
ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_callback_tracing_kind_operations(
    rocprofiler_callback_tracing_kind_t kind,
    rocprofiler_callback_tracing_kind_operation_cb_t callback, void* data) ROCPROFILER_NONNULL(2);

// ---- CODE_OBJECT payloads (phase LOAD when loaded/registered, UNLOAD when unloaded) ----

typedef enum rocprofiler_code_object_storage_type_t {
  ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_NONE = 0,
  ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE,
  ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY,
  ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_LAST,
} rocprofiler_code_object_storage_type_t;

/// operation ROCPROFILER_CODE_OBJECT_LOAD. CUDA: one per loaded module (cubin).
typedef struct rocprofiler_callback_tracing_code_object_load_data_t {
  uint64_t size;
  uint64_t code_object_id;
  union {
    rocprofiler_agent_id_t rocp_agent;  ///< the former name of agent_id, kept as an alias
    rocprofiler_agent_id_t agent_id;
  };
  const void* hsa_agent;  ///< NULL outside HSA
  const char* uri;
  uint64_t load_base;
  uint64_t load_size;
  int64_t load_delta;
  rocprofiler_code_object_storage_type_t storage_type;
  int storage_file;  ///< storage_type FILE: file descriptor
  uint64_t memory_base;
  uint64_t memory_size;
} rocprofiler_callback_tracing_code_object_load_data_t;

/// operation ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER. kernel_id is what kernel
/// dispatch records carry in dispatch_info.kernel_id.
typedef struct rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t {
  uint64_t size;
  uint64_t kernel_id;
  uint64_t code_object_id;
  const char* kernel_name;  ///< mangled; HSA names end in ".kd"
  uint64_t kernel_object;
  uint32_t kernarg_segment_size;
  uint32_t kernarg_segment_alignment;
  uint32_t group_segment_size;    ///< static shared memory / LDS
  uint32_t private_segment_size;  ///< per work-item (CUDA: local memory per thread)
  uint32_t sgpr_count;
  uint32_t arch_vgpr_count;  ///< CUDA: registers per thread
  uint32_t accum_vgpr_count;
  int64_t kernel_code_entry_byte_offset;
  uint64_t kernel_address;
} rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t;

typedef rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t
    rocprofiler_kernel_symbol_data_t;

/// operation ROCPROFILER_CODE_OBJECT_HOST_KERNEL_SYMBOL_REGISTER.
typedef struct rocprofiler_callback_tracing_code_object_host_kernel_symbol_register_data_t {
  uint64_t size;
  uint64_t host_function_id;
  uint64_t kernel_id;
  uint64_t code_object_id;
  uint64_t host_function;
  uint64_t modules;
  const char* device_function;
  uint32_t thread_limit;
  rocprofiler_dim3_t thread_ids;
  rocprofiler_dim3_t block_ids;
  rocprofiler_dim3_t block_dims;
  rocprofiler_dim3_t grid_dims;
  uint64_t workgroup_size;
} rocprofiler_callback_tracing_code_object_host_kernel_symbol_register_data_t;

// ---- CUDA API payload (extension; no vendor types: the CUPTI structs stay opaque) ----

typedef struct rocprofiler_callback_tracing_cuda_api_data_t {
  uint64_t size;
  const char* function_name;  ///< static string, e.g. "cudaMemcpy"
  const void* args;           ///< CUPTI's *_params struct for this callback id (opaque)
  const void* retval;         ///< EXIT only: pointer to the return value (opaque)
  uint64_t cuda_context;      ///< CUcontext as integer, 0 if none
  uint32_t cuda_context_uid;
  uint32_t reserved;
} rocprofiler_callback_tracing_cuda_api_data_t;

ROCPROFILER_EXTERN_C_FINI
