// Forward declarations and basic types of the profiler core's C API: status codes, typed
// handles, user data, correlation ids, record headers. Names and semantics follow AMD's
// rocprofiler-sdk; NVIDIA-specific additions are appended in the same style.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "rocprofiler-sdk/defines.h"

ROCPROFILER_EXTERN_C_INIT

/// Every call of the C API returns one of these. 0 is success. Turn one into text with
/// rocprofiler_get_status_name / rocprofiler_get_status_string (every code has both).
typedef enum rocprofiler_status_t {
  ROCPROFILER_STATUS_SUCCESS = 0,
  ROCPROFILER_STATUS_ERROR,
  ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
  ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND,
  ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
  ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND,
  ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND,
  ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
  ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND,
  ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR,
  ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID,
  ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED,
  ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT,
  ROCPROFILER_STATUS_ERROR_CONTEXT_ID_NOT_ZERO,
  ROCPROFILER_STATUS_ERROR_BUFFER_BUSY,
  ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED,
  ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
  ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
  ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI,
  ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
  ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT,
  ROCPROFILER_STATUS_ERROR_FINALIZED,
  ROCPROFILER_STATUS_ERROR_HSA_NOT_LOADED,
  ROCPROFILER_STATUS_ERROR_DIM_NOT_FOUND,
  ROCPROFILER_STATUS_ERROR_PROFILE_COUNTER_NOT_FOUND,
  ROCPROFILER_STATUS_ERROR_AST_GENERATION_FAILED,
  ROCPROFILER_STATUS_ERROR_AST_NOT_FOUND,
  ROCPROFILER_STATUS_ERROR_AQL_NO_EVENT_COORD,
  ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_KERNEL,
  ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES,
  ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND,
  ROCPROFILER_STATUS_ERROR_AGENT_DISPATCH_CONFLICT,
  ROCPROFILER_STATUS_INTERNAL_NO_AGENT_CONTEXT,
  ROCPROFILER_STATUS_ERROR_SAMPLE_RATE_EXCEEDED,
  ROCPROFILER_STATUS_ERROR_NO_PROFILE_QUEUE,
  ROCPROFILER_STATUS_ERROR_NO_HARDWARE_COUNTERS,
  ROCPROFILER_STATUS_ERROR_AGENT_MISMATCH,
  ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE,
  ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT,
  ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED,
  ROCPROFILER_STATUS_ERROR_PERMISSION_DENIED,
  ROCPROFILER_STATUS_ERROR_BACKEND_NOT_LOADED,  ///< extension: a backend plugin is missing
  ROCPROFILER_STATUS_LAST,
} rocprofiler_status_t;

/// A version as three numbers (rocprofiler_get_version_triplet; cxx/version.hpp computes one
/// from the packed value rocprofiler_configure receives).
typedef struct rocprofiler_version_triplet_t {
  uint32_t major;
  uint32_t minor;
  uint32_t patch;
} rocprofiler_version_triplet_t;

typedef uint64_t rocprofiler_timestamp_t;  ///< nanoseconds on CLOCK_BOOTTIME
typedef uint64_t rocprofiler_thread_id_t;  ///< OS thread id (gettid)
typedef int32_t rocprofiler_tracing_operation_t;
typedef uint64_t rocprofiler_kernel_id_t;
typedef uint64_t rocprofiler_dispatch_id_t;

/// Typed handles: one uint64_t each; 0 means "null".
typedef struct rocprofiler_context_id_t {
  uint64_t handle;
} rocprofiler_context_id_t;
typedef struct rocprofiler_buffer_id_t {
  uint64_t handle;
} rocprofiler_buffer_id_t;
typedef struct rocprofiler_agent_id_t {
  uint64_t handle;
} rocprofiler_agent_id_t;
typedef struct rocprofiler_queue_id_t {
  uint64_t handle;
} rocprofiler_queue_id_t;
typedef struct rocprofiler_stream_id_t {
  uint64_t handle;
} rocprofiler_stream_id_t;
typedef struct rocprofiler_counter_id_t {
  uint64_t handle;
} rocprofiler_counter_id_t;
typedef struct rocprofiler_counter_config_id_t {
  uint64_t handle;
} rocprofiler_counter_config_id_t;
typedef struct rocprofiler_callback_thread_t {
  uint64_t handle;
} rocprofiler_callback_thread_t;

/// Opaque per-call data a tool may set; kept between ENTER and EXIT of one call.
typedef union rocprofiler_user_data_t {
  uint64_t value;
  void* ptr;
} rocprofiler_user_data_t;

typedef union rocprofiler_address_t {
  uint64_t handle;
  uint64_t value;
  const void* ptr;
} rocprofiler_address_t;

typedef struct rocprofiler_dim3_t {
  uint32_t x;
  uint32_t y;
  uint32_t z;
} rocprofiler_dim3_t;

/// internal: unique per API call (async work inherits it); external: the innermost id pushed
/// with rocprofiler_push_external_correlation_id on the calling thread for the context;
/// ancestor: internal id of the enclosing traced API call on the same thread (0 if none).
typedef struct rocprofiler_correlation_id_t {
  uint64_t internal;
  rocprofiler_user_data_t external;
  uint64_t ancestor;
} rocprofiler_correlation_id_t;

typedef struct rocprofiler_async_correlation_id_t {
  uint64_t internal;
  rocprofiler_user_data_t external;
} rocprofiler_async_correlation_id_t;

typedef enum rocprofiler_callback_phase_t {
  ROCPROFILER_CALLBACK_PHASE_NONE = 0,
  ROCPROFILER_CALLBACK_PHASE_ENTER,
  ROCPROFILER_CALLBACK_PHASE_LOAD = ROCPROFILER_CALLBACK_PHASE_ENTER,
  ROCPROFILER_CALLBACK_PHASE_EXIT,
  ROCPROFILER_CALLBACK_PHASE_UNLOAD = ROCPROFILER_CALLBACK_PHASE_EXIT,
  ROCPROFILER_CALLBACK_PHASE_LAST,
} rocprofiler_callback_phase_t;

typedef enum rocprofiler_buffer_category_t {
  ROCPROFILER_BUFFER_CATEGORY_NONE = 0,
  ROCPROFILER_BUFFER_CATEGORY_TRACING,
  ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING,
  ROCPROFILER_BUFFER_CATEGORY_COUNTERS,
  ROCPROFILER_BUFFER_CATEGORY_LAST,
} rocprofiler_buffer_category_t;

typedef enum rocprofiler_buffer_policy_t {
  ROCPROFILER_BUFFER_POLICY_NONE = 0,
  ROCPROFILER_BUFFER_POLICY_DISCARD,   ///< full: drop and count until the next delivery
  ROCPROFILER_BUFFER_POLICY_LOSSLESS,  ///< full: hand the buffer over, block only if none free
  ROCPROFILER_BUFFER_POLICY_LAST,
} rocprofiler_buffer_policy_t;

/// Header of one record delivered to a buffer callback. hash = category | (kind << 32).
/// (rocprofiler-sdk overlays hash on {category, kind} through an anonymous struct, which ISO
/// C++ forbids; the fields are kept separately here and hold the same values.)
typedef struct rocprofiler_record_header_t {
  uint64_t hash;
  uint32_t category;  ///< rocprofiler_buffer_category_t
  uint32_t kind;      ///< e.g. rocprofiler_buffer_tracing_kind_t for CATEGORY_TRACING
  void* payload;      ///< the record; owned by the core, valid during the callback only
} rocprofiler_record_header_t;

/// The hash of a record header from its category (rocprofiler_buffer_category_t) and kind:
/// the category in the low 32 bits, the kind in the high 32 bits.
static inline uint64_t rocprofiler_record_header_compute_hash(uint32_t category, uint32_t kind) {
  const uint64_t low = category;  // widened without casts: the header compiles as C and C++
  const uint64_t high = kind;
  return low | (high << 32);
}

/// Memory kinds of NVIDIA records (CUPTI's memory kinds; extension).
typedef enum rocprofiler_memory_kind_t {
  ROCPROFILER_MEMORY_KIND_UNKNOWN = 0,
  ROCPROFILER_MEMORY_KIND_PAGEABLE,
  ROCPROFILER_MEMORY_KIND_PINNED,
  ROCPROFILER_MEMORY_KIND_DEVICE,
  ROCPROFILER_MEMORY_KIND_ARRAY,
  ROCPROFILER_MEMORY_KIND_MANAGED,
  ROCPROFILER_MEMORY_KIND_DEVICE_STATIC,
  ROCPROFILER_MEMORY_KIND_MANAGED_STATIC,
  ROCPROFILER_MEMORY_KIND_LAST,
} rocprofiler_memory_kind_t;

// ---- Counters (types shared by counters.h, counter_config.h, dispatch_counting_service.h) ----

/// Which rocprofiler_counter_info_*_t rocprofiler_query_counter_info fills.
typedef enum rocprofiler_counter_info_version_id_t {
  ROCPROFILER_COUNTER_INFO_VERSION_NONE = 0,
  ROCPROFILER_COUNTER_INFO_VERSION_0,  ///< rocprofiler_counter_info_v0_t
  ROCPROFILER_COUNTER_INFO_VERSION_1,  ///< rocprofiler_counter_info_v1_t
  ROCPROFILER_COUNTER_INFO_VERSION_LAST,
} rocprofiler_counter_info_version_id_t;

/// Record kinds of ROCPROFILER_BUFFER_CATEGORY_COUNTERS (rocprofiler_record_header_t::kind).
typedef enum rocprofiler_counter_record_kind_t {
  ROCPROFILER_COUNTER_RECORD_NONE = 0,
  /// payload: rocprofiler_dispatch_counting_service_record_t, written before the dispatch's
  /// counter records
  ROCPROFILER_COUNTER_RECORD_PROFILE_COUNTING_DISPATCH_HEADER,
  ROCPROFILER_COUNTER_RECORD_VALUE,  ///< payload: rocprofiler_counter_record_t
  /// extension: payload rocprofiler_spm_sample_record_t (spm.h)
  ROCPROFILER_COUNTER_RECORD_SPM_SAMPLE,
  ROCPROFILER_COUNTER_RECORD_LAST,
} rocprofiler_counter_record_kind_t;

typedef enum rocprofiler_counter_flag_t {
  ROCPROFILER_COUNTER_FLAG_NONE = 0,
  ROCPROFILER_COUNTER_FLAG_ASYNC,              ///< device counting: into the buffer, later
  ROCPROFILER_COUNTER_FLAG_APPEND_DEFINITION,  ///< add to the shipped definitions, not replace
  ROCPROFILER_COUNTER_FLAG_LAST,
} rocprofiler_counter_flag_t;

/// One value of one counter: the counter id and the value's position in each of the counter's
/// dimensions, packed. Decode it with rocprofiler_query_record_counter_id and
/// rocprofiler_query_record_dimension_position; do not rely on the packing.
typedef uint64_t rocprofiler_counter_instance_id_t;

/// A dimension of counter values (rocprofiler_counter_record_dimension_info_t::id). 0 means
/// "no dimension": the value's flat (row-major) position among all of the counter's values.
typedef uint64_t rocprofiler_counter_dimension_id_t;

/// One dimension of a counter: its name (e.g. "DIMENSION_INSTANCE"), how many positions it
/// has, and the id rocprofiler_query_record_dimension_position takes.
typedef struct rocprofiler_counter_record_dimension_info_t {
  const char* name;
  size_t instance_size;
  rocprofiler_counter_dimension_id_t id;
} rocprofiler_counter_record_dimension_info_t;

/// Older name of rocprofiler_counter_record_dimension_info_t.
typedef rocprofiler_counter_record_dimension_info_t rocprofiler_record_dimension_info_t;

/// One counter value of one dispatch.
typedef struct rocprofiler_counter_record_t {
  rocprofiler_counter_instance_id_t id;  ///< counter and dimension positions (see above)
  double counter_value;
  rocprofiler_dispatch_id_t dispatch_id;  ///< > 0: the dispatch (as in kernel dispatch records)
  rocprofiler_user_data_t user_data;      ///< what the dispatch callback set
  rocprofiler_agent_id_t agent_id;
} rocprofiler_counter_record_t;

/// Older name of rocprofiler_counter_record_t.
typedef rocprofiler_counter_record_t rocprofiler_record_counter_t;

/// Older name of rocprofiler_counter_config_id_t ("profile config").
typedef rocprofiler_counter_config_id_t rocprofiler_profile_config_id_t;

ROCPROFILER_EXTERN_C_FINI
