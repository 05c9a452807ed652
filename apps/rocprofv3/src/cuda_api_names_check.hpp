// The names --cuda-api-include/--cuda-api-exclude accept: every CUDA runtime and driver API
// function CUPTI can trace, from the toolkit's callback-id headers at build time (CMakeLists.txt).
#pragma once

#include <string>
#include <string_view>

namespace rocprof::cli {

// Empty when `name` is a CUDA runtime or driver API function (or when this build has no
// table), else what is wrong with it and the closest function names.
std::string cuda_api_name_problem(std::string_view name);

// Whether this build has the table (CUPTI's headers were found when it was configured).
bool cuda_api_names_known();

}  // namespace rocprof::cli
