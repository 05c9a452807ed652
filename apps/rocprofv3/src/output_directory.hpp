// The output directory that the CLI checks before launching anything.
#pragma once

#include <string>

#include "environment.hpp"
#include "job.hpp"

namespace rocprof::cli {

// -d, else $ROCPROF_OUTPUT_PATH, else the current directory.
std::string output_root(const job& config, const environment& base);

// Creates the part of `directory` that precedes its first placeholder (the rest depends on the
// application process) and checks that it is a writable directory. Throws usage_error.
void ensure_output_directory(const std::string& directory);

}  // namespace rocprof::cli
