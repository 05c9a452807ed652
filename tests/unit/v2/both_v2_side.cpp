// The v2 half of the two-libraries tests: calls the v2 library by names the core also
// defines. Only this file includes the v2 header.
#include <rocprofiler/v2/rocprofiler.h>

#include "both_libraries.hpp"

// Each shared name under a local alias bound to v2's version: a program linked to both
// libraries says which one it means, else the link order decides (libprofiler/v2/README.md).
extern "C" decltype(::rocprofiler_create_buffer) v2_rocprofiler_create_buffer;
extern "C" decltype(::rocprofiler_get_timestamp) v2_rocprofiler_get_timestamp;
__asm__(".symver v2_rocprofiler_create_buffer,rocprofiler_create_buffer@ROCPROFILER_9.0");
__asm__(".symver v2_rocprofiler_get_timestamp,rocprofiler_get_timestamp@ROCPROFILER_9.0");

namespace both {

int v2_create_buffer_status() {
  rocprofiler_buffer_id_t id{};
  return v2_rocprofiler_create_buffer(
      rocprofiler_session_id_t{12345},
      [](const rocprofiler_record_header_t*, const rocprofiler_record_header_t*,
         rocprofiler_session_id_t, rocprofiler_buffer_id_t) {},
      4096, &id);
}

uint64_t v2_timestamp() {
  rocprofiler_timestamp_t t{};
  return v2_rocprofiler_get_timestamp(&t) == ROCPROFILER_STATUS_SUCCESS ? t.value : 0;
}

int v2_initialize() {
  return rocprofiler_initialize();
}

int v2_finalize() {
  return rocprofiler_finalize();
}

}  // namespace both
