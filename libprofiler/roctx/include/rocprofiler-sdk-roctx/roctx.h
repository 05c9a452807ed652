// ROCTx: application annotations (markers, thread ranges, process ranges, naming, profiler
// control). Library: librocprofiler-sdk-roctx.so (and libroctx64.so for the legacy name).
// Without a profiler loaded every call is trivial: levels are counted, ids handed out, nothing
// is recorded.
#pragma once

#include "rocprofiler-sdk-roctx/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ROCTX_VERSION_MAJOR 4
#define ROCTX_VERSION_MINOR 1

#define ROCTX_API __attribute__((visibility("default")))

/// Instantaneous marker.
ROCTX_API void roctxMarkA(const char* message) __attribute__((nonnull(1)));
/// Starts a nested range on this thread; returns the nesting level before the push (0 first).
ROCTX_API int roctxRangePushA(const char* message) __attribute__((nonnull(1)));
/// Ends the innermost range of this thread; returns the new level, -1 if none was open.
ROCTX_API int roctxRangePop(void);
/// Starts a process-wide range that may end on any thread; returns its id (from 1 up).
ROCTX_API roctx_range_id_t roctxRangeStartA(const char* message) __attribute__((nonnull(1)));
/// Ends the process range `id`.
ROCTX_API void roctxRangeStop(roctx_range_id_t id);
/// Asks the profiler to pause (resume) collection; tid 0 means all threads. Return 0.
ROCTX_API int roctxProfilerPause(roctx_thread_id_t tid);
ROCTX_API int roctxProfilerResume(roctx_thread_id_t tid);
/// Naming calls; return 0.
ROCTX_API int roctxNameOsThread(const char* name) __attribute__((nonnull(1)));
ROCTX_API int roctxNameHsaAgent(const char* name, const struct hsa_agent_s* agent)
    __attribute__((nonnull(1)));
ROCTX_API int roctxNameHipDevice(const char* name, int device_id) __attribute__((nonnull(1)));
ROCTX_API int roctxNameHipStream(const char* name, const struct ihipStream_t* stream)
    __attribute__((nonnull(1)));
/// Writes the OS thread id (gettid) of the caller; returns 0.
ROCTX_API int roctxGetThreadId(roctx_thread_id_t* tid) __attribute__((nonnull(1)));

#define roctxMark(message) roctxMarkA(message)
#define roctxRangePush(message) roctxRangePushA(message)
#define roctxRangeStart(message) roctxRangeStartA(message)

#ifdef __cplusplus
}
#endif
