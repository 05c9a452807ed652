// The CUPTI entry points this backend uses, resolved with dlsym from the one libcupti copy the
// process ends up with (see cupti_loader.hpp). Nothing here links libcupti: the declarations
// come from the toolkit headers and only their types are used.
#pragma once

#include <cupti.h>
#include <cupti_pcsampling.h>  // cuptiGetCubinCrc

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

// One pointer per entry point, typed from the header's own declaration so a signature change in
// a new CUPTI is a compile error here rather than a crash at run time.
struct cupti_table {
#define ROCPROF_CUPTI_MEMBER(name) decltype(&::name) name = nullptr;
  ROCPROF_CUPTI_FUNCTIONS(ROCPROF_CUPTI_MEMBER)
#undef ROCPROF_CUPTI_MEMBER
};

}  // namespace rocprof::cuda
