// CUDA runtime/driver API function names as the user writes them (--cuda-api-exclude) and as
// CUPTI names its callback ids. CUPTI's runtime ids carry the CUDA version that added the entry
// point (CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020); users write the function's own name, so
// both sides are compared without that suffix. Driver names keep theirs: cuMemAlloc_v2 is a
// real function, distinct from cuMemAlloc.
#pragma once

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

}  // namespace rocprof::common
