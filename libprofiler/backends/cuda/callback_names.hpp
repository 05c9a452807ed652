// The names of CUPTI's runtime and driver callback ids as this build's CUPTI headers spell them
// (cudaGetDevice_v3020, cuCtxGetCurrent): what cuptiGetCallbackName answers, without loading
// libcupti. Used to name operations before the application has loaded its own libcupti (a
// tool choosing which CUDA API calls to trace at start-up).
#pragma once

#include <cupti_callbacks.h>

#include <cstdint>

namespace rocprof::cuda {

// nullptr for ids the headers do not name (holes, or ids of a newer CUPTI).
const char* header_callback_name(CUpti_CallbackDomain domain, uint32_t cbid);

}  // namespace rocprof::cuda
