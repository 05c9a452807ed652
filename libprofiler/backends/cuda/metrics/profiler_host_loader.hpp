// The profiler host API of an opened libcupti (cupti_loader.hpp finds the library; the host
// entry points are resolved here, apart from the tracing table, because they are optional:
// CUPTI gained them in CUDA 12.6, and a library without them still traces).
#pragma once

#include <memory>
#include <string>

#include "cupti_loader.hpp"
#include "profiler_host_api.hpp"

namespace rocprof::cuda {

struct profiler_host_library {
  std::unique_ptr<profiler_host_api> api;  // nullptr when unavailable
  std::string error;                       // why, when api is nullptr
};

// Resolves every entry point of ROCPROF_CUPTI_PROFILER_HOST_FUNCTIONS from `lib.handle`. The
// library stays owned by `lib` (never closed: CUPTI keeps threads and state in it).
profiler_host_library open_profiler_host(const cupti_library& lib);

}  // namespace rocprof::cuda
