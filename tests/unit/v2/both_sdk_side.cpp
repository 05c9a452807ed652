// The core half of the two-libraries tests: calls the core by names the v2 library also
// defines. Only this file includes rocprofiler-sdk/ headers.
//
// GNU ld keeps one dynamic reference per name in an executable, whatever versions its objects
// ask for, so a program linked to both libraries calls one library's shared names directly
// (both_v2_side.cpp: v2's) and the other's by version through dlvsym; names only the core has
// (rocprofiler_is_initialized) are plain calls.
#include <dlfcn.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include "both_libraries.hpp"

namespace both {
namespace {

// The core's definition of `name`, whichever library comes first in the search order.
#define ROCPROF_CORE_FUNCTION(name) \
  reinterpret_cast<decltype(&::name)>(dlvsym(RTLD_DEFAULT, #name, "ROCPROFILER_SDK_1.0"))

}  // namespace

int core_create_buffer_status() {
  auto create_buffer = ROCPROF_CORE_FUNCTION(rocprofiler_create_buffer);
  if (create_buffer == nullptr) return -1000;
  rocprofiler_buffer_id_t id{};
  return create_buffer(
      rocprofiler_context_id_t{0}, 4096, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
      [](rocprofiler_context_id_t, rocprofiler_buffer_id_t, rocprofiler_record_header_t**, size_t,
         void*, uint64_t) {},
      nullptr, &id);
}

uint64_t core_timestamp() {
  auto get_timestamp = ROCPROF_CORE_FUNCTION(rocprofiler_get_timestamp);
  rocprofiler_timestamp_t t = 0;
  return get_timestamp != nullptr && get_timestamp(&t) == ROCPROFILER_STATUS_SUCCESS ? t : 0;
}

int core_initialized() {
  int status = 0;
  rocprofiler_is_initialized(&status);
  return status;
}

}  // namespace both
