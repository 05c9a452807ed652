// CUDA runtime/driver API function names as the user writes them (--cuda-api-exclude) and as
// CUPTI names its callback ids. CUPTI's runtime ids carry the CUDA version that added the entry
// point (CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020); users write the function's own name, so
// both sides are compared without that suffix. Driver names keep theirs: cuMemAlloc_v2 is a
// real function, distinct from cuMemAlloc.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace rocprof::common {

// The function names of one --cuda-api-include/-exclude value or ROCPROF_CUDA_API_* variable
// (space, tab or comma separated): the CLI checks exactly the names the tool will use.
std::vector<std::string> split_cuda_api_names(std::string_view text);

// `name` without a trailing runtime version suffix (`_v` and four or more digits).
std::string_view cuda_api_base_name(std::string_view name);

// Whether the traced function `traced` is the one the user named `named`.
bool cuda_api_name_matches(std::string_view traced, std::string_view named);

// Whether `names` (as the user writes them) names the traced function `traced`.
bool cuda_api_named(std::string_view traced, const std::vector<std::string>& names);

// The state queries the API trace leaves out unless --cuda-api-queries: getters of the current
// device, context, error state and a kernel's attributes, which do no GPU work and which
// frameworks call several times per operation (PyTorch makes 6 cudaGetDevice, 2
// cuDevicePrimaryCtxGetState, a cudaGetLastError and a cuKernelGetName per kernel, and each
// cudaGetDevice a nested cuCtxGetDevice_v2). Recording them all made an API trace 11 calls per
// kernel where PyTorch's own profiler records one (it leaves out cudaGetDevice,
// cudaGetLastError, cuCtxGetCurrent, cuDevicePrimaryCtxGetState and cuKernelGetAttribute too).
inline constexpr std::array<std::string_view, 11> cuda_state_queries{"cudaGetDevice",
                                                                     "cudaGetLastError",
                                                                     "cudaPeekAtLastError",
                                                                     "cuCtxGetCurrent",
                                                                     "cuCtxGetDevice",
                                                                     "cuCtxGetDevice_v2",
                                                                     "cuDevicePrimaryCtxGetState",
                                                                     "cuKernelGetAttribute",
                                                                     "cuKernelGetName",
                                                                     "cuFuncGetAttribute",
                                                                     "cuFuncGetName"};

// The functions the API trace leaves out: `exclude`, then, unless `queries`
// (--cuda-api-queries), each of cuda_state_queries that `include` does not name (a query the
// user asks for by name is recorded).
std::vector<std::string> cuda_api_exclusions(const std::vector<std::string>& include,
                                             const std::vector<std::string>& exclude, bool queries);

}  // namespace rocprof::common
