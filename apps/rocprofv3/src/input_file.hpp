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

// Throws usage_error naming the file, the line where known, and the key. Files over 64 MiB,
// nesting past k_input_max_depth (yaml_reader.hpp) and YAML aliases past their budget are
// errors too.
input_jobs read_input_file(const std::string& path);

// The same for text already read; `path` gives the type (its extension) and names the file in
// messages. The fuzz targets enter here.
input_jobs parse_input_text(const std::string& path, const std::string& text);

// Throws usage_error unless `path` ends in .txt, .yaml, .yml or .json.
void check_input_type(const std::string& path);

}  // namespace rocprof::cli
