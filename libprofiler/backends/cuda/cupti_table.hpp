// The CUPTI entry points this backend uses, resolved with dlsym from the one libcupti copy the
// process ends up with (see cupti_loader.hpp). Nothing here links libcupti: the declarations
// come from the toolkit headers and only their types are used.
#pragma once

#include <cupti.h>
#include <cupti_pcsampling.h>     // cuptiGetCubinCrc
#include <cupti_profiler_host.h>  // metrics/: enumeration, pass counting, evaluation

namespace rocprof::cuda {

#define ROCPROF_CUPTI_FUNCTIONS(X)          \
  X(cuptiGetVersion)                        \
  X(cuptiGetResultString)                   \
  X(cuptiSubscribe_v2)                      \
  X(cuptiUnsubscribe)                       \
  X(cuptiEnableCallback)                    \
  X(cuptiEnableDomain)                      \
  X(cuptiGetCallbackName)                   \
  X(cuptiActivityEnable)                    \
  X(cuptiActivityDisable)                   \
  X(cuptiActivityRegisterCallbacks)         \
  X(cuptiActivityRegisterTimestampCallback) \
  X(cuptiActivityGetNextRecord)             \
  X(cuptiActivityGetNumDroppedRecords)      \
  X(cuptiActivityFlushAll)                  \
  X(cuptiActivityFlushPeriod)               \
  X(cuptiGetCubinCrc)                       \
  X(cuptiGetDeviceId)                       \
  X(cuptiFinalize)

// Optional entry points (resolved when present; a libcupti or stand-in without them still
// traces): per-API activity records, which attribute launches without a callback per launch.
#define ROCPROF_CUPTI_OPTIONAL_FUNCTIONS(X) \
  X(cuptiActivityEnableRuntimeApi)          \
  X(cuptiActivityEnableDriverApi)           \
  X(cuptiSetThreadIdType)

// The profiler host API (metric catalogue, config images, evaluation; works without a GPU). A
// separate, optional table: metrics/profiler_host_loader.hpp resolves it from the same handle,
// so a libcupti without it (or a stand-in for tests) still traces.
#define ROCPROF_CUPTI_PROFILER_HOST_FUNCTIONS(X)      \
  X(cuptiProfilerHostGetSupportedChips)               \
  X(cuptiProfilerHostInitialize)                      \
  X(cuptiProfilerHostDeinitialize)                    \
  X(cuptiProfilerHostGetBaseMetrics)                  \
  X(cuptiProfilerHostGetSubMetrics)                   \
  X(cuptiProfilerHostGetMetricProperties)             \
  X(cuptiProfilerHostConfigAddMetrics)                \
  X(cuptiProfilerHostGetConfigImageSize)              \
  X(cuptiProfilerHostGetConfigImage)                  \
  X(cuptiProfilerHostGetNumOfPasses)                  \
  X(cuptiProfilerHostGetMaxNumHardwareMetricsPerPass) \
  X(cuptiProfilerHostEvaluateToGpuValues)             \
  X(cuptiProfilerHostGetRangeName)

// One pointer per entry point, typed from the header's own declaration so a signature change in
// a new CUPTI is a compile error here rather than a crash at run time.
struct cupti_table {
#define ROCPROF_CUPTI_MEMBER(name) decltype(&::name) name = nullptr;
  ROCPROF_CUPTI_FUNCTIONS(ROCPROF_CUPTI_MEMBER)
  ROCPROF_CUPTI_OPTIONAL_FUNCTIONS(ROCPROF_CUPTI_MEMBER)
};

struct cupti_profiler_host_table {
  ROCPROF_CUPTI_PROFILER_HOST_FUNCTIONS(ROCPROF_CUPTI_MEMBER)
};
#undef ROCPROF_CUPTI_MEMBER

}  // namespace rocprof::cuda
