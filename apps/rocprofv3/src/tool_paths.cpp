#include "tool_paths.hpp"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job.hpp"

namespace rocprof::cli {

tool_paths find_tool_paths(const std::string& rocm_root) {
  tool_paths paths;
  if (!rocm_root.empty()) {
    paths.root = rocm_root;
    return paths;
  }
  char exe[PATH_MAX] = {};
  const ssize_t length = ::readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (length <= 0) throw usage_error("cannot resolve /proc/self/exe to find the tool library");
  std::string dir(exe, static_cast<size_t>(length));
  dir = dir.substr(0, dir.find_last_of('/'));         // .../bin
  paths.root = dir.substr(0, dir.find_last_of('/'));  // ...
  return paths;
}

bool is_file(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

}  // namespace rocprof::cli
