// CUDA runtime/driver API function names as the user writes them (--cuda-api-exclude) and as
// CUPTI names its callback ids. CUPTI's runtime ids carry the CUDA version that added the entry
// point (CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020); users write the function's own name, so
// both sides are compared without that suffix. Driver names keep theirs: cuMemAlloc_v2 is a
// real function, distinct from cuMemAlloc.
#pragma once

#include <string_view>

namespace rocprof::common {

// `name` without a trailing runtime version suffix (`_v` and four or more digits).
std::string_view cuda_api_base_name(std::string_view name);

// Whether the traced function `traced` is the one the user named `named`.
bool cuda_api_name_matches(std::string_view traced, std::string_view named);

}  // namespace rocprof::common
