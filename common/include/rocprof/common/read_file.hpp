// A whole file as text, for the small inputs the CLIs read at start-up (definition files, kept
// counter checks, SQL scripts): each caller says in its own words what a missing file means.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace rocprof::common {

// False (and `text` left alone) when `path` cannot be opened.
inline bool read_whole_file(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return true;
}

}  // namespace rocprof::common
