// The whole rocprofv3 run: parse, resolve passes, check, launch. Separate from main() so tests
// can drive it.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace rocprof::cli {

// `args` excludes argv[0]. Returns the process exit status. Errors print one line
// "rocprofv3: error: ..." to `err` and return 1 without launching anything.
int run_rocprofv3(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace rocprof::cli
