// Build identity, printed by `rocprofv3 --version` and recorded in outputs (build_spec).
#pragma once

#include <string_view>

namespace rocprof::common {

struct build_info {
  std::string_view version;
  std::string_view git_revision;
  std::string_view library_arch;
  std::string_view system_name;
  std::string_view system_processor;
  std::string_view system_version;
  std::string_view compiler_id;
  std::string_view compiler_version;
};

const build_info& get_build_info();

// The ROCm release whose rocprofv3 interface (options, input files, outputs) this tool implements
// (rocprofiler-sdk 1.0.0, rocprofv3-facts.md §0). `--version` prints it as rocm_version, labelled
// as such: no ROCm installation is implied.
inline constexpr std::string_view implemented_rocm_version = "7.0.0";

}  // namespace rocprof::common
