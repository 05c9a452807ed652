// Where the libraries that rocprofv3 injects live: relative to the rocprofv3 executable
// (/proc/self/exe), so the build tree and the install tree work the same way.
#pragma once

#include <string>

namespace rocprof::cli {

struct tool_paths {
  std::string root;  // the directory above bin/

  std::string tool() const { return root + "/lib/rocprofiler-sdk/librocprofiler-sdk-tool.so"; }
  std::string roctx() const { return root + "/lib/librocprofiler-sdk-roctx.so"; }
  std::string kokkosp() const {
    return root + "/lib/rocprofiler-sdk/librocprofiler-sdk-tool-kokkosp.so";
  }
  std::string cuda_plugin() const {
    return root + "/lib/rocprofiler-sdk/librocprofiler-sdk-cuda.so";
  }
};

// `rocm_root` (--rocm-root) overrides; otherwise the parent of the executable's directory.
tool_paths find_tool_paths(const std::string& rocm_root);

bool is_file(const std::string& path);

}  // namespace rocprof::cli
