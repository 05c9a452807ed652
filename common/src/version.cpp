#include "rocprof/common/version.hpp"

#include "rocprof_build_info.h"
#include "rocprof_git_revision.h"

namespace rocprof::common {

const build_info& get_build_info() {
  static const build_info info{ROCPROF_VERSION,          ROCPROF_GIT_REVISION,
                               ROCPROF_LIBRARY_ARCH,     ROCPROF_SYSTEM_NAME,
                               ROCPROF_SYSTEM_PROCESSOR, ROCPROF_SYSTEM_VERSION,
                               ROCPROF_COMPILER_ID,      ROCPROF_COMPILER_VERSION};
  return info;
}

}  // namespace rocprof::common
