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

}  // namespace rocprof::common
