// Marker domains (ROCTx, and NVTX / Kokkos mapped onto them): operation ids and the payload
// of marker callback-tracing records.
#pragma once

#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/// Operations of ..._MARKER_CORE_API (one record per library call).
typedef enum rocprofiler_marker_core_api_id_t {
  ROCPROFILER_MARKER_CORE_API_ID_NONE = -1,
  ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA = 0,
  ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA,
  ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop,
  ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA,
  ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop,
  ROCPROFILER_MARKER_CORE_API_ID_roctxGetThreadId,
  ROCPROFILER_MARKER_CORE_API_ID_LAST,
} rocprofiler_marker_core_api_id_t;

/// Operations of ..._MARKER_CONTROL_API.
typedef enum rocprofiler_marker_control_api_id_t {
  ROCPROFILER_MARKER_CONTROL_API_ID_NONE = -1,
  ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause = 0,
  ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume,
  ROCPROFILER_MARKER_CONTROL_API_ID_LAST,
} rocprofiler_marker_control_api_id_t;

/// Operations of ..._MARKER_NAME_API.
typedef enum rocprofiler_marker_name_api_id_t {
  ROCPROFILER_MARKER_NAME_API_ID_NONE = -1,
  ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread = 0,
  ROCPROFILER_MARKER_NAME_API_ID_roctxNameHsaAgent,
  ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipDevice,
  ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipStream,
  ROCPROFILER_MARKER_NAME_API_ID_LAST,
} rocprofiler_marker_name_api_id_t;

/// Operations of ..._MARKER_CORE_RANGE_API, the synthesized domain: a push/pop pair is one
/// roctxThreadRangeA (ENTER at the push, EXIT at the pop, correlation id of the push), a
/// start/stop pair one roctxProcessRangeA (EXIT may come on another thread), a mark one
/// roctxMarkA with start == end.
typedef enum rocprofiler_marker_core_range_api_id_t {
  ROCPROFILER_MARKER_CORE_RANGE_API_ID_NONE = -1,
  ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxMarkA = 0,
  ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA,
  ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA,
  ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxGetThreadId,
  ROCPROFILER_MARKER_CORE_RANGE_API_ID_LAST,
} rocprofiler_marker_core_range_api_id_t;

/// Arguments, one member per operation name (across the four marker kinds). Strings are
/// interned by the core: they stay valid until process exit.
typedef union rocprofiler_marker_api_args_t {
  struct {
    const char* message;
  } roctxMarkA;
  struct {
    const char* message;
  } roctxRangePushA;
  struct {
    int32_t unused;
  } roctxRangePop;
  struct {
    const char* message;
  } roctxRangeStartA;
  struct {
    uint64_t id;
  } roctxRangeStop;
  struct {
    uint64_t* tid;
  } roctxGetThreadId;
  struct {
    uint64_t tid;
  } roctxProfilerPause;
  struct {
    uint64_t tid;
  } roctxProfilerResume;
  struct {
    const char* name;
  } roctxNameOsThread;
  struct {
    const char* name;
    const void* agent;
  } roctxNameHsaAgent;
  struct {
    const char* name;
    int device_id;
  } roctxNameHipDevice;
  struct {
    const char* name;
    const void* stream;
  } roctxNameHipStream;
  struct {
    const char* message;
  } roctxThreadRangeA;
  struct {
    const char* message;
    uint64_t id;  ///< the range id returned by the start
  } roctxProcessRangeA;
} rocprofiler_marker_api_args_t;

typedef union rocprofiler_marker_api_retval_t {
  int32_t int32_t_retval;
  int64_t int64_t_retval;
  uint64_t uint64_t_retval;  ///< roctxRangeStartA: the range id
} rocprofiler_marker_api_retval_t;

/// Payload of callback-tracing records of the four marker kinds.
typedef struct rocprofiler_callback_tracing_marker_api_data_t {
  uint64_t size;
  rocprofiler_marker_api_args_t args;
  rocprofiler_marker_api_retval_t retval;  ///< meaningful at EXIT
  // --- extensions ---
  const char* domain;  ///< NVTX domain name (interned), NULL for ROCTx and the default domain
  rocprofiler_thread_id_t start_thread_id;  ///< process ranges: thread that started the range
} rocprofiler_callback_tracing_marker_api_data_t;

ROCPROFILER_EXTERN_C_FINI
