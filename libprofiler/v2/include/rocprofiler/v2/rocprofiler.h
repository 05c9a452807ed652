/* rocprofiler v2 compatibility API (librocprofiler64v2.so).
 *
 * The types, values and signatures are those of AMD's rocprofiler v2 API (version 9.0), so
 * that programs written for it compile unchanged; the implementation runs on this project's
 * profiler core. This header and rocprofiler-sdk/ headers declare different functions under
 * some of the same names (rocprofiler_create_buffer, rocprofiler_get_timestamp, the status
 * enum): a translation unit includes one or the other, never both. Both libraries may be
 * loaded in one process: each exports its symbols under its own version node
 * (ROCPROFILER_9.0 here), so a call always reaches the library it was linked against.
 *
 * Threads: buffer callbacks run on a delivery thread of the library (or on the thread that
 * calls rocprofiler_flush_data / rocprofiler_terminate_session / rocprofiler_finalize); the
 * records passed to a callback are valid until it returns. Strings in records (names) stay
 * valid until process exit.
 *
 * Parts that only make sense on AMD hardware (PC sampling, ATT, SPM, PCIe/XGMI counter
 * sampling) return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED and print why once; the list is in
 * libprofiler/v2/README.md.
 */
#ifndef ROCPROF_V2_ROCPROFILER_H_
#define ROCPROF_V2_ROCPROFILER_H_

#include <stddef.h>
#include <stdint.h>

#if !defined(ROCPROFILER_CALL)
#define ROCPROFILER_CALL
#endif
#if !defined(ROCPROFILER_API)
#define ROCPROFILER_API __attribute__((visibility("default"))) ROCPROFILER_CALL
#endif
/* Marks the declarations of API version 9.0 (expands to nothing, as in AMD's header). */
#define ROCPROFILER_VERSION_9_0

#ifdef __cplusplus
extern "C" {
#endif

#define ROCPROFILER_VERSION_MAJOR 9
#define ROCPROFILER_VERSION_MINOR 0

/* ---- versions, status codes, life cycle ---- */

ROCPROFILER_API uint32_t rocprofiler_version_major(void);
ROCPROFILER_API uint32_t rocprofiler_version_minor(void);

/* Every call returns one of these; 0 is success, errors are negative. */
typedef enum {
  ROCPROFILER_STATUS_SUCCESS = 0,
  ROCPROFILER_STATUS_ERROR = -1,
  ROCPROFILER_STATUS_ERROR_ALREADY_INITIALIZED = -2,
  ROCPROFILER_STATUS_ERROR_NOT_INITIALIZED = -3,
  ROCPROFILER_STATUS_ERROR_SESSION_MISSING_BUFFER = -4,
  ROCPROFILER_STATUS_ERROR_TIMESTAMP_NOT_APPLICABLE = -5,
  ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND = -6,
  ROCPROFILER_STATUS_ERROR_AGENT_INFORMATION_MISSING = -7,
  ROCPROFILER_STATUS_ERROR_QUEUE_NOT_FOUND = -8,
  ROCPROFILER_STATUS_ERROR_QUEUE_INFORMATION_MISSING = -9,
  ROCPROFILER_STATUS_ERROR_KERNEL_NOT_FOUND = -10,
  ROCPROFILER_STATUS_ERROR_KERNEL_INFORMATION_MISSING = -11,
  ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND = -12,
  ROCPROFILER_STATUS_ERROR_COUNTER_INFORMATION_MISSING = -13,
  ROCPROFILER_STATUS_ERROR_TRACER_API_DATA_NOT_FOUND = -14,
  ROCPROFILER_STATUS_ERROR_TRACER_API_DATA_INFORMATION_MISSING = -15,
  ROCPROFILER_STATUS_ERROR_INCORRECT_DOMAIN = -16,
  ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND = -17,
  ROCPROFILER_STATUS_ERROR_CORRUPTED_SESSION_BUFFER = -18,
  ROCPROFILER_STATUS_ERROR_RECORD_CORRUPTED = -19,
  ROCPROFILER_STATUS_ERROR_INCORRECT_REPLAY_MODE = -20,
  ROCPROFILER_STATUS_ERROR_SESSION_MISSING_FILTER = -21,
  ROCPROFILER_STATUS_ERROR_INCORRECT_SIZE = -22,
  ROCPROFILER_STATUS_ERROR_INCORRECT_FLUSH_INTERVAL = -23,
  ROCPROFILER_STATUS_ERROR_SESSION_FILTER_DATA_MISMATCH = -24,
  ROCPROFILER_STATUS_ERROR_FILTER_DATA_CORRUPTED = -25,
  ROCPROFILER_STATUS_ERROR_CORRUPTED_LABEL_DATA = -26,
  ROCPROFILER_STATUS_ERROR_RANGE_STACK_IS_EMPTY = -27,
  ROCPROFILER_STATUS_ERROR_PASS_NOT_STARTED = -28,
  ROCPROFILER_STATUS_ERROR_HAS_ACTIVE_SESSION = -29,
  ROCPROFILER_STATUS_ERROR_SESSION_NOT_ACTIVE = -30,
  ROCPROFILER_STATUS_ERROR_FILTER_NOT_FOUND = -31,
  ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND = -32,
  ROCPROFILER_STATUS_ERROR_FILTER_NOT_SUPPORTED = -33,
  ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS = -34,
  ROCPROFILER_STATUS_ERROR_INVALID_OPERATION_ID = -35,
  ROCPROFILER_STATUS_ERROR_INVALID_DOMAIN_ID = -36,
  ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED = -37,
  ROCPROFILER_STATUS_ERROR_MISMATCHED_EXTERNAL_CORRELATION_ID = -38,
} rocprofiler_status_t;

/* A static text for every status (an unknown code gets a text saying so). */
ROCPROFILER_API const char* rocprofiler_error_str(rocprofiler_status_t status)
    ROCPROFILER_VERSION_9_0;

/* initialize: once before any other call except versions, error strings and timestamps
 * (again: ALREADY_INITIALIZED). finalize: stops the active session, delivers what the buffers
 * hold, destroys every session; a later initialize starts afresh. */
ROCPROFILER_API rocprofiler_status_t rocprofiler_initialize(void) ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t rocprofiler_finalize(void) ROCPROFILER_VERSION_9_0;

typedef struct {
  uint64_t handle;
} rocprofiler_session_id_t;

/* Nanoseconds on the clock of every record (CLOCK_BOOTTIME). */
typedef struct {
  uint64_t value;
} rocprofiler_timestamp_t;

ROCPROFILER_API rocprofiler_status_t rocprofiler_get_timestamp(rocprofiler_timestamp_t* timestamp)
    ROCPROFILER_VERSION_9_0;

/* ---- records ---- */

typedef struct {
  rocprofiler_timestamp_t begin;
  rocprofiler_timestamp_t end;
} rocprofiler_record_header_timestamp_t;

typedef struct {
  uint64_t handle;
} rocprofiler_record_id_t;

typedef enum {
  ROCPROFILER_PROFILER_RECORD = 0,
  ROCPROFILER_TRACER_RECORD = 1,
  ROCPROFILER_ATT_TRACER_RECORD = 2,
  ROCPROFILER_PC_SAMPLING_RECORD = 3,
  ROCPROFILER_SPM_RECORD = 4,
  ROCPROFILER_COUNTERS_SAMPLER_RECORD = 5
} rocprofiler_record_kind_t;

/* First member of every record: its kind says which struct it is. */
typedef struct {
  rocprofiler_record_kind_t kind;
  rocprofiler_record_id_t id;
} rocprofiler_record_header_t;

typedef struct {
  uint64_t handle;
} rocprofiler_agent_id_t;

typedef enum { ROCPROFILER_CPU_AGENT = 0, ROCPROFILER_GPU_AGENT = 1 } rocprofiler_agent_type_t;

typedef enum {
  ROCPROFILER_AGENT_NAME = 0,
  ROCPROFILER_AGENT_TYPE = 1
} rocprofiler_agent_info_kind_t;

/* Agent name ("sm_90"...) or type ("GPU" / "CPU") as a string; *_size includes the NUL. */
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_agent_info_size(
    rocprofiler_agent_info_kind_t kind, rocprofiler_agent_id_t agent_id,
    size_t* data_size) ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t
rocprofiler_query_agent_info(rocprofiler_agent_info_kind_t kind, rocprofiler_agent_id_t descriptor,
                             const char** name) ROCPROFILER_VERSION_9_0;

typedef struct {
  uint64_t handle;
} rocprofiler_queue_id_t;

typedef enum { ROCPROFILER_QUEUE_SIZE = 0 } rocprofiler_queue_info_kind_t;

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_queue_info_size(
    rocprofiler_queue_info_kind_t kind, rocprofiler_queue_id_t agent_id,
    size_t* data_size) ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t
rocprofiler_query_queue_info(rocprofiler_queue_info_kind_t kind, rocprofiler_queue_id_t descriptor,
                             const char** name) ROCPROFILER_VERSION_9_0;

typedef struct {
  uint64_t handle;
} rocprofiler_kernel_id_t;

typedef enum { ROCPROFILER_KERNEL_NAME = 0 } rocprofiler_kernel_info_kind_t;

/* The kernel's (mangled) name, from the code objects the core reported. */
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_kernel_info_size(
    rocprofiler_kernel_info_kind_t kind, rocprofiler_kernel_id_t kernel_id,
    size_t* data_size) ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_kernel_info(
    rocprofiler_kernel_info_kind_t kind, rocprofiler_kernel_id_t kernel_id,
    const char** data) ROCPROFILER_VERSION_9_0;

typedef struct {
  uint32_t value;
} rocprofiler_thread_id_t;

/* ---- counters ---- */

typedef struct {
  const char* name;
  const char* description;
  const char* expression;
  uint32_t instances_count;
  const char* block_name;
  uint32_t block_counters;
} rocprofiler_counter_info_t;

typedef int (*rocprofiler_counters_info_callback_t)(rocprofiler_counter_info_t counter,
                                                    const char* gpu_name,
                                                    uint32_t gpu_index) ROCPROFILER_VERSION_9_0;

ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_counters(
    rocprofiler_counters_info_callback_t counters_info_callback) ROCPROFILER_VERSION_9_0;

typedef struct {
  uint64_t handle;
} rocprofiler_counter_id_t;

typedef enum {
  ROCPROFILER_COUNTER_NAME = 0,
  ROCPROFILER_COUNTER_BLOCK_ID = 2,
  ROCPROFILER_COUNTER_HIERARCHY_LEVEL = 3
} rocprofiler_counter_info_kind_t;

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_counter_info_size(
    rocprofiler_session_id_t session_id, rocprofiler_counter_info_kind_t counter_info_type,
    rocprofiler_counter_id_t counter_id, size_t* data_size) ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_counter_info(
    rocprofiler_session_id_t session_id, rocprofiler_counter_info_kind_t kind,
    rocprofiler_counter_id_t counter_id, const char** data) ROCPROFILER_VERSION_9_0;

typedef struct {
  uint64_t value;
} rocprofiler_queue_index_t;

typedef struct {
  double value;
} rocprofiler_record_counter_value_t;

typedef struct {
  rocprofiler_counter_id_t counter_handler;
  rocprofiler_record_counter_value_t value;
} rocprofiler_record_counter_instance_t;

typedef struct {
  uint64_t value;
} rocprofiler_record_counters_instances_count_t;

typedef struct {
  uint64_t grid_size;
  uint64_t workgroup_size;
  uint64_t lds_size;
  uint64_t scratch_size;
  uint64_t arch_vgpr_count;
  uint64_t accum_vgpr_count;
  uint64_t sgpr_count;
  uint64_t wave_size;
  uint64_t signal_handle;
} rocprofiler_kernel_properties_t;

typedef struct {
  uint64_t value;
} rocprofiler_correlation_id_t;

/* A kernel dispatch (ROCPROFILER_DISPATCH_TIMESTAMPS_COLLECTION): its GPU begin/end, the
 * launching thread, the launch's correlation id. */
typedef struct {
  rocprofiler_record_header_t header;
  rocprofiler_kernel_id_t kernel_id;
  rocprofiler_agent_id_t gpu_id;
  rocprofiler_queue_id_t queue_id;
  rocprofiler_record_header_timestamp_t timestamps;
  const rocprofiler_record_counter_instance_t* counters;
  rocprofiler_record_counters_instances_count_t counters_count;
  uint32_t xcc_index;
  rocprofiler_kernel_properties_t kernel_properties;
  rocprofiler_thread_id_t thread_id;
  rocprofiler_queue_index_t queue_idx;
  rocprofiler_correlation_id_t correlation_id;
} rocprofiler_record_profiler_t;

typedef struct {
  uint32_t value;
} rocprofiler_event_id_t;

typedef struct {
  uint16_t value;
} rocprofiler_record_spm_counters_instances_count_t;

typedef struct {
  rocprofiler_record_spm_counters_instances_count_t counters_data[32];
} rocprofiler_record_se_spm_data_t;

typedef struct {
  rocprofiler_record_header_t header;
  rocprofiler_record_header_timestamp_t timestamps;
  rocprofiler_record_se_spm_data_t shader_engine_data[4];
} rocprofiler_record_spm_t;

typedef struct {
  void* buffer_ptr;
  uint32_t buffer_size;
} rocprofiler_record_se_att_data_t;

/* ---- code-object capture ---- */

/* One captured code object (on NVIDIA GPUs: one loaded cubin). */
typedef struct {
  const char* filepath;                /* its URI: file://... or memory://... */
  uint64_t base_address;               /* where it is loaded */
  uint64_t mem_size;                   /* its loaded size */
  const char* data;                    /* a copy of its bytes (copy modes), else NULL */
  uint64_t data_size;                  /* size of data, else 0 */
  rocprofiler_timestamp_t clock_start; /* when it was loaded */
  rocprofiler_timestamp_t clock_end;   /* when it was unloaded; 0 while loaded */
  uint32_t att_marker_id;              /* its load order (ATT's marker id on AMD) */
} rocprofiler_intercepted_codeobj_t;

typedef enum {
  ROCPROFILER_CAPTURE_SYMBOLS_ONLY = 0,
  ROCPROFILER_CAPTURE_COPY_MEMORY = 1,
  ROCPROFILER_CAPTURE_COPY_FILE_AND_MEMORY = 2
} rocprofiler_codeobj_capture_mode_t;

typedef struct {
  const rocprofiler_intercepted_codeobj_t* symbols;
  uint64_t count;
  uint64_t userdata;
} rocprofiler_codeobj_symbols_t;

typedef struct {
  rocprofiler_record_header_t header;
  rocprofiler_kernel_id_t kernel_id;
  rocprofiler_agent_id_t gpu_id;
  rocprofiler_queue_id_t queue_id;
  rocprofiler_kernel_properties_t kernel_properties;
  rocprofiler_thread_id_t thread_id;
  rocprofiler_queue_index_t queue_idx;
  uint64_t writer_id;
  rocprofiler_record_se_att_data_t* shader_engine_data;
  uint64_t shader_engine_data_count;
  rocprofiler_codeobj_symbols_t intercept_list;
} rocprofiler_record_att_tracer_t;

/* ---- tracing ---- */

/* On NVIDIA GPUs: CUDA runtime API -> HIP_API, CUDA driver API -> HSA_API, kernels, copies
 * and memsets -> HIP_OPS (else HSA_OPS), markers (ROCTx, NVTX) -> ROCTX. */
typedef enum {
  ACTIVITY_DOMAIN_HSA_API = 0,
  ACTIVITY_DOMAIN_HSA_OPS = 1,
  ACTIVITY_DOMAIN_HIP_OPS = 2,
  ACTIVITY_DOMAIN_HIP_API = 3,
  ACTIVITY_DOMAIN_KFD_API = 4,
  ACTIVITY_DOMAIN_EXT_API = 5,
  ACTIVITY_DOMAIN_ROCTX = 6,
  ACTIVITY_DOMAIN_HSA_EVT = 7,
  ACTIVITY_DOMAIN_NUMBER
} rocprofiler_tracer_activity_domain_t;

typedef struct {
  uint32_t id;
} rocprofiler_tracer_operation_id_t;

typedef struct {
  uint64_t value;
} rocprofiler_tracer_activity_correlation_id_t;

/* AMD's per-call argument structs; always NULL here (CUDA calls carry none). */
typedef struct {
  union {
    const struct hip_api_data_s* hip;
    const struct hsa_api_data_s* hsa;
    const struct roctx_api_data_s* roctx;
  };
} rocprofiler_tracer_api_data_t;

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_tracer_operation_name(
    rocprofiler_tracer_activity_domain_t domain, rocprofiler_tracer_operation_id_t operation_id,
    const char** name);
ROCPROFILER_API rocprofiler_status_t
rocprofiler_tracer_operation_id(rocprofiler_tracer_activity_domain_t domain, const char* name,
                                rocprofiler_tracer_operation_id_t* operation_id);

typedef struct {
  uint64_t id;
} rocprofiler_tracer_external_id_t;

typedef enum {
  ROCPROFILER_PHASE_NONE = 0,
  ROCPROFILER_PHASE_ENTER = 1,
  ROCPROFILER_PHASE_EXIT = 2
} rocprofiler_api_tracing_phase_t;

/* An API call, a marker, or an async operation (kernel, copy, memset). name: the API
 * function, the marker's message, or the kernel's name. */
typedef struct {
  rocprofiler_record_header_t header;
  rocprofiler_tracer_external_id_t external_id;
  rocprofiler_tracer_activity_domain_t domain;
  rocprofiler_tracer_operation_id_t operation_id;
  rocprofiler_tracer_api_data_t api_data;
  rocprofiler_tracer_activity_correlation_id_t correlation_id;
  rocprofiler_record_header_timestamp_t timestamps;
  rocprofiler_agent_id_t agent_id;
  rocprofiler_queue_id_t queue_id;
  rocprofiler_thread_id_t thread_id;
  rocprofiler_api_tracing_phase_t phase;
  const char* name;
} rocprofiler_record_tracer_t;

typedef struct {
  uint64_t value;
} rocprofiler_kernel_dispatch_id_t;

typedef struct {
  rocprofiler_kernel_dispatch_id_t dispatch_id;
  union {
    rocprofiler_timestamp_t timestamp;
    uint64_t cycle;
  };
  uint64_t pc;
  uint32_t se;
  rocprofiler_agent_id_t gpu_id;
} rocprofiler_pc_sample_t;

typedef struct {
  rocprofiler_record_header_t header;
  rocprofiler_pc_sample_t pc_sample;
} rocprofiler_record_pc_sample_t;

/* ---- memory-storage buffers ---- */

typedef enum {
  ROCPROFILER_BUFFER_PROPERTY_KIND_INTERVAL_FLUSH = 0 /* value: milliseconds, > 0 */
} rocprofiler_buffer_property_kind_t;

typedef struct {
  rocprofiler_buffer_property_kind_t kind;
  uint64_t value;
} rocprofiler_buffer_property_t;

typedef struct {
  uint64_t value;
} rocprofiler_buffer_id_t;

typedef struct {
  uint64_t value;
} rocprofiler_filter_id_t;

/* Receives the records [begin, end) of one buffer; walk them with rocprofiler_next_record.
 * Called when the buffer is full, on rocprofiler_flush_data, at the flush interval, when the
 * session terminates, and at finalize. */
typedef void (*rocprofiler_buffer_callback_t)(const rocprofiler_record_header_t* begin,
                                              const rocprofiler_record_header_t* end,
                                              rocprofiler_session_id_t session_id,
                                              rocprofiler_buffer_id_t buffer_id);

/* Delivers what the buffer holds now (records still in the core are collected first). */
ROCPROFILER_API rocprofiler_status_t rocprofiler_flush_data(
    rocprofiler_session_id_t session_id, rocprofiler_buffer_id_t buffer_id) ROCPROFILER_VERSION_9_0;

/* *next = the record after `record` (records sit back to back, each its kind's struct). */
ROCPROFILER_API rocprofiler_status_t rocprofiler_next_record(
    const rocprofiler_record_header_t* record, const rocprofiler_record_header_t** next,
    rocprofiler_session_id_t session_id, rocprofiler_buffer_id_t buffer_id) ROCPROFILER_VERSION_9_0;

/* ---- sessions and filters ---- */

typedef enum {
  ROCPROFILER_NONE_REPLAY_MODE = -1,
} rocprofiler_replay_mode_t;

ROCPROFILER_API rocprofiler_status_t
rocprofiler_create_session(rocprofiler_replay_mode_t replay_mode,
                           rocprofiler_session_id_t* session_id) ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t
rocprofiler_destroy_session(rocprofiler_session_id_t session_id) ROCPROFILER_VERSION_9_0;

typedef enum {
  ROCPROFILER_DISPATCH_TIMESTAMPS_COLLECTION = 1,
  ROCPROFILER_COUNTERS_COLLECTION = 2,
  ROCPROFILER_PC_SAMPLING_COLLECTION = 3,
  ROCPROFILER_ATT_TRACE_COLLECTION = 4,
  ROCPROFILER_SPM_COLLECTION = 5,
  ROCPROFILER_API_TRACE = 6,
  ROCPROFILER_COUNTERS_SAMPLER = 7
} rocprofiler_filter_kind_t;

typedef enum {
  ROCPROFILER_FILTER_HSA_TRACER_API_FUNCTIONS = 1,
  ROCPROFILER_FILTER_HIP_TRACER_API_FUNCTIONS = 2,
  ROCPROFILER_FILTER_GPU_NAME = 3,
  ROCPROFILER_FILTER_RANGE = 4,
  ROCPROFILER_FILTER_KERNEL_NAMES = 5,
  ROCPROFILER_FILTER_DISPATCH_IDS = 6
} rocprofiler_filter_property_kind_t;

typedef const char* rocprofiler_hip_function_name_t;
typedef const char* rocprofiler_hsa_function_name_t;

typedef enum {
  ROCPROFILER_ATT_COMPUTE_UNIT = 0,
  ROCPROFILER_ATT_VMID_MASK = 1,
  ROCPROFILER_ATT_SE_MASK = 5,
  ROCPROFILER_ATT_SIMD_SELECT = 8,
  ROCPROFILER_ATT_OCCUPANCY = 9,
  ROCPROFILER_ATT_BUFFER_SIZE = 10,
  ROCPROFILER_ATT_CAPTURE_MODE = 11,
  ROCPROFILER_ATT_PERF_MASK = 240,
  ROCPROFILER_ATT_PERF_CTRL = 241,
  ROCPROFILER_ATT_PERFCOUNTER = 242,
  ROCPROFILER_ATT_PERFCOUNTER_NAME = 243,
  ROCPROFILER_ATT_MAXVALUE,
  ROCPROFILER_ATT_MASK = 2,        /* deprecated */
  ROCPROFILER_ATT_TOKEN_MASK = 3,  /* deprecated */
  ROCPROFILER_ATT_TOKEN_MASK2 = 4, /* deprecated */
  ROCPROFILER_ATT_SAMPLE_RATE = 6  /* deprecated */
} rocprofiler_att_parameter_name_t;

typedef struct {
  rocprofiler_att_parameter_name_t parameter_name;
  union {
    uint32_t value;
    const char* counter_name;
  };
} rocprofiler_att_parameter_t;

/* The element type of rocprofiler_filter_property_t::dispatch_ids (unnamed in AMD's header). */
typedef struct {
  uint64_t start;
  uint64_t end;
} rocprofiler_filter_dispatch_id_range_t;

typedef struct {
  rocprofiler_filter_property_kind_t kind;
  union {
    const char** name_regex;
    rocprofiler_hip_function_name_t* hip_functions_names;
    rocprofiler_hsa_function_name_t* hsa_functions_names;
    uint32_t range[2];
    rocprofiler_filter_dispatch_id_range_t* dispatch_ids;
  };
  uint64_t data_count;
} rocprofiler_filter_property_t;

typedef struct {
  const char** counters_names;
  int counters_count;
  uint32_t sampling_rate;
  rocprofiler_agent_id_t* gpu_agent_id;
} rocprofiler_spm_parameter_t;

typedef enum {
  ROCPROFILER_COUNTERS_SAMPLER_PCIE_COUNTERS = 0,
  ROCPROFILER_COUNTERS_SAMPLER_XGMI_COUNTERS = 1
} rocprofiler_counters_sampler_counter_type_t;

typedef struct {
  char* name;
  rocprofiler_counters_sampler_counter_type_t type;
} rocprofiler_counters_sampler_counter_input_t;

typedef struct {
  rocprofiler_counters_sampler_counter_type_t type;
  rocprofiler_record_counter_value_t value;
} rocprofiler_counters_sampler_counter_output_t;

typedef struct {
  rocprofiler_counters_sampler_counter_input_t* counters;
  int counters_num;
  uint32_t sampling_rate;
  uint32_t sampling_duration;
  uint32_t initial_delay;
  int gpu_agent_index;
} rocprofiler_counters_sampler_parameters_t;

typedef struct {
  rocprofiler_record_header_t header;
  rocprofiler_agent_id_t gpu_id;
  rocprofiler_counters_sampler_counter_output_t* counters;
  uint32_t num_counters;
} rocprofiler_record_counters_sampler_t;

typedef union {
  rocprofiler_tracer_activity_domain_t* trace_apis;
  const char** counters_names;
  rocprofiler_att_parameter_t* att_parameters;
  rocprofiler_spm_parameter_t* spm_parameters;
  rocprofiler_counters_sampler_parameters_t counters_sampler_parameters;
} rocprofiler_filter_data_t;

/* A filter says what a session collects; records go to the buffer set with
 * rocprofiler_set_filter_buffer. Filters are added before the session starts. */
ROCPROFILER_API rocprofiler_status_t rocprofiler_create_filter(
    rocprofiler_session_id_t session_id, rocprofiler_filter_kind_t filter_kind,
    rocprofiler_filter_data_t data, uint64_t data_count, rocprofiler_filter_id_t* filter_id,
    rocprofiler_filter_property_t property) ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t rocprofiler_set_filter_buffer(
    rocprofiler_session_id_t session_id, rocprofiler_filter_id_t filter_id,
    rocprofiler_buffer_id_t buffer_id) ROCPROFILER_VERSION_9_0;

/* Called on the calling thread at ENTER and EXIT of each traced API call and marker. */
typedef void (*rocprofiler_sync_callback_t)(rocprofiler_record_tracer_t record,
                                            rocprofiler_session_id_t session_id);

ROCPROFILER_API rocprofiler_status_t rocprofiler_set_api_trace_sync_callback(
    rocprofiler_session_id_t session_id, rocprofiler_filter_id_t filter_id,
    rocprofiler_sync_callback_t callback) ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t rocprofiler_destroy_filter(
    rocprofiler_session_id_t session_id, rocprofiler_filter_id_t filter_id) ROCPROFILER_VERSION_9_0;

/* buffer_size: bytes of records held before the callback runs (at least one record). */
ROCPROFILER_API rocprofiler_status_t rocprofiler_create_buffer(
    rocprofiler_session_id_t session_id, rocprofiler_buffer_callback_t buffer_callback,
    size_t buffer_size, rocprofiler_buffer_id_t* buffer_id) ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t rocprofiler_set_buffer_properties(
    rocprofiler_session_id_t session_id, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_buffer_property_t* buffer_properties,
    uint32_t buffer_properties_count) ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t rocprofiler_destroy_buffer(
    rocprofiler_session_id_t session_id, rocprofiler_buffer_id_t buffer_id) ROCPROFILER_VERSION_9_0;

/* Session + one filter + one buffer (+ the sync callback for API_TRACE) in one call. */
ROCPROFILER_API rocprofiler_status_t rocprofiler_create_ready_session(
    rocprofiler_replay_mode_t replay_mode, rocprofiler_filter_kind_t filter_kind,
    rocprofiler_filter_data_t data, uint64_t data_count, size_t buffer_size,
    rocprofiler_buffer_callback_t buffer_callback, rocprofiler_session_id_t* session_id,
    rocprofiler_filter_property_t property,
    rocprofiler_sync_callback_t callback) ROCPROFILER_VERSION_9_0;

/* One session is active at a time (another: HAS_ACTIVE_SESSION). Terminating delivers what
 * its buffers hold. */
ROCPROFILER_API rocprofiler_status_t rocprofiler_start_session(rocprofiler_session_id_t session_id)
    ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t
rocprofiler_terminate_session(rocprofiler_session_id_t session_id) ROCPROFILER_VERSION_9_0;

/* ---- device profiling sessions: device-wide counters read at any time ---- */

typedef struct {
  double value;
} rocprofiler_counter_value_t;

typedef struct {
  char metric_name[64];
  rocprofiler_counter_value_t value;
} rocprofiler_device_profile_metric_t;

/* poll fills data[0..num_counters) in the order of counter_names. */
ROCPROFILER_API rocprofiler_status_t rocprofiler_device_profiling_session_create(
    const char** counter_names, uint64_t num_counters, rocprofiler_session_id_t* session_id,
    int cpu_index, int gpu_index) ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t rocprofiler_device_profiling_session_start(
    rocprofiler_session_id_t session_id) ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t rocprofiler_device_profiling_session_poll(
    rocprofiler_session_id_t session_id,
    rocprofiler_device_profile_metric_t* data) ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t rocprofiler_device_profiling_session_stop(
    rocprofiler_session_id_t session_id) ROCPROFILER_VERSION_9_0;
ROCPROFILER_API rocprofiler_status_t rocprofiler_device_profiling_session_destroy(
    rocprofiler_session_id_t session_id) ROCPROFILER_VERSION_9_0;

/* ---- code-object capture ----
 * start: the code objects loaded now and every one loaded until stop. get: the list so far
 * (valid until the next get or free of the same id). Copy modes keep the bytes of objects
 * loaded while a copy-mode capture exists. */
ROCPROFILER_API rocprofiler_status_t rocprofiler_codeobj_capture_create(
    rocprofiler_record_id_t* id, rocprofiler_codeobj_capture_mode_t mode, uint64_t userdata);
ROCPROFILER_API rocprofiler_status_t
rocprofiler_codeobj_capture_get(rocprofiler_record_id_t id, rocprofiler_codeobj_symbols_t* capture);
ROCPROFILER_API rocprofiler_status_t rocprofiler_codeobj_capture_free(rocprofiler_record_id_t id);
ROCPROFILER_API rocprofiler_status_t rocprofiler_codeobj_capture_start(rocprofiler_record_id_t id);
ROCPROFILER_API rocprofiler_status_t rocprofiler_codeobj_capture_stop(rocprofiler_record_id_t id);

#ifdef __cplusplus
}
#endif

#endif /* ROCPROF_V2_ROCPROFILER_H_ */
