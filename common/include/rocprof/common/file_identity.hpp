// What changes when a file is replaced in place: "path size mtime_ns", for keys of answers that
// hold only as long as a program or library stays the same.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>

namespace rocprof::common {

// Empty when the file cannot be read (or `path` is empty).
inline std::string file_identity(const std::string& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return {};
  return path + " " + std::to_string(st.st_size) + " " +
         std::to_string(static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec);
}

}  // namespace rocprof::common
