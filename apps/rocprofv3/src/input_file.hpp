// Input files (-i): .txt counter files and .yaml/.yml/.json job files.
#pragma once

#include <string>
#include <vector>

#include "job.hpp"

namespace rocprof::cli {

struct input_jobs {
  std::vector<job> jobs;
  std::string sub_directory;  // "pmc_" for .txt, "pass_" for job files
};

// Throws usage_error naming the file, the line where known, and the key.
input_jobs read_input_file(const std::string& path);

}  // namespace rocprof::cli
