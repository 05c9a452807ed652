// The marker producer entry of the profiler core: what ROCTx, the NVTX injection and the
// Kokkos connector call. Exported C functions of librocprofiler-sdk.so; look them up with
// dlsym(RTLD_DEFAULT, "rocprof_marker_push") etc. so that nothing is linked when the core is
// absent. `domain` is an NVTX domain name, NULL for ROCTx and NVTX's default domain.
//
// The core turns the calls into MARKER_CORE_RANGE_API records (and MARKER_CORE_API,
// MARKER_CONTROL_API, MARKER_NAME_API ones), buffer and callback tracing alike:
//   push/pop     -> one roctxThreadRangeA (ENTER at push, EXIT at pop, push's correlation id)
//   start/stop   -> one roctxProcessRangeA (stop may run on any thread)
//   mark         -> roctxMarkA with start == end
//   pause/resume -> MARKER_CONTROL_API roctxProfilerPause / roctxProfilerResume
//   name_*       -> MARKER_NAME_API
// All calls are cheap when no context traces markers (one relaxed load), and never lock or
// allocate in the steady state (see libprofiler/README.md for the string interning). No call
// throws: one that fails inside the core (out of memory) returns -1 (push, pop, name_*,
// pause, resume) or range id 0 (start) and records nothing.
#pragma once

#include <stdint.h>

#include "rocprofiler-sdk/defines.h"

ROCPROFILER_EXTERN_C_INIT

/// Returns the thread's nesting level (within `domain`) before the push: 0 for the first.
ROCPROFILER_API int rocprof_marker_push(const char* domain, const char* message);
/// Returns the new level, or -1 if the thread had no open range in `domain`.
ROCPROFILER_API int rocprof_marker_pop(const char* domain);
/// Returns a process-unique range id (> 0, increasing from 1).
ROCPROFILER_API uint64_t rocprof_marker_start(const char* domain, const char* message);
/// Ends the range `id` (from any thread). Unknown ids are ignored.
ROCPROFILER_API void rocprof_marker_stop(const char* domain, uint64_t id);
ROCPROFILER_API void rocprof_marker_mark(const char* domain, const char* message);
/// Names the calling OS thread (MARKER_NAME_API roctxNameOsThread). Returns 0.
ROCPROFILER_API int rocprof_marker_name_thread(const char* domain, const char* name);
/// Other naming calls: operation is a rocprofiler_marker_name_api_id_t, object the device id
/// or the agent / stream pointer. Returns 0.
ROCPROFILER_API int rocprof_marker_name_object(int operation, const char* name, uint64_t object);
/// tid 0: all threads. Returns 0. The tool reacts in its MARKER_CONTROL_API callback.
ROCPROFILER_API int rocprof_marker_pause(uint64_t tid);
ROCPROFILER_API int rocprof_marker_resume(uint64_t tid);

/// Function-pointer types for dlsym users.
typedef int (*rocprof_marker_push_fn_t)(const char*, const char*);
typedef int (*rocprof_marker_pop_fn_t)(const char*);
typedef uint64_t (*rocprof_marker_start_fn_t)(const char*, const char*);
typedef void (*rocprof_marker_stop_fn_t)(const char*, uint64_t);
typedef void (*rocprof_marker_mark_fn_t)(const char*, const char*);
typedef int (*rocprof_marker_name_thread_fn_t)(const char*, const char*);
typedef int (*rocprof_marker_name_object_fn_t)(int, const char*, uint64_t);
typedef int (*rocprof_marker_control_fn_t)(uint64_t);

ROCPROFILER_EXTERN_C_FINI
