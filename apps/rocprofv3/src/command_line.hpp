// The rocprofv3 command line: CLI11 options built from the configuration schema.
#pragma once

#include <string>
#include <vector>

#include "job.hpp"

namespace rocprof::cli {

struct command_line {
  job options;  // only the options given explicitly (unset stays absent)
  std::vector<std::vector<std::string>> pmc_passes;  // one entry per --pmc flag, in order
  std::vector<std::string> app;                      // everything after the first "--"
  bool show_help = false;
  bool show_version = false;
};

// `args` excludes argv[0]. Throws usage_error for unknown options and bad values.
command_line parse_command_line(const std::vector<std::string>& args);

// The grouped --help text.
std::string help_text();

}  // namespace rocprof::cli
