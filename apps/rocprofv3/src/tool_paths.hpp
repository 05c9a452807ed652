// Where the libraries that rocprofv3 injects live: relative to the rocprofv3 executable
// (/proc/self/exe), so the build tree and the install tree work the same way.
#pragma once

#include <rocprofiler-sdk/backend/backend_abi.h>

#include <string>
#include <string_view>

namespace rocprof::cli {

struct tool_paths {
  std::string root;  // the directory above bin/

  std::string tool() const { return root + "/lib/rocprofiler-sdk/librocprofiler-sdk-tool.so"; }
  std::string roctx() const { return root + "/lib/librocprofiler-sdk-roctx.so"; }
  std::string kokkosp() const {
    return root + "/lib/rocprofiler-sdk/librocprofiler-sdk-tool-kokkosp.so";
  }
  // The profiler core this CLI was built with (the tool library links it).
  std::string core() const { return root + "/lib/librocprofiler-sdk.so"; }
  // The backend plugin <name> where the core next to the tool looks for it (backend_abi.h).
  std::string backend(std::string_view name) const {
    return root + "/lib/" ROCPROF_BACKEND_SUBDIR "/" ROCPROF_BACKEND_FILE_PREFIX +
           std::string(name) + ROCPROF_BACKEND_FILE_SUFFIX;
  }
  // The directory of those plugins.
  std::string backend_directory() const { return root + "/lib/" ROCPROF_BACKEND_SUBDIR; }
};

// `rocm_root` (--rocm-root) overrides; otherwise the parent of the executable's directory.
tool_paths find_tool_paths(const std::string& rocm_root);

bool is_file(const std::string& path);

}  // namespace rocprof::cli
