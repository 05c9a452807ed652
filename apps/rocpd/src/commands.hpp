// The rocpd subcommands. Each returns the exit status and throws usage_error for bad input
// (one clear message; run_rocpd prints it and exits non-zero).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "options.hpp"

namespace rocprof::rocpd_cli {

int run_convert(const rocpd_args& args, std::ostream& out);
int run_summary(const rocpd_args& args, std::ostream& out);
int run_query(const rocpd_args& args, std::ostream& out);
int run_merge(const rocpd_args& args, std::ostream& out);
int run_package(const rocpd_args& args, std::ostream& out);

// `args` excludes argv[0].
int run_rocpd(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace rocprof::rocpd_cli
