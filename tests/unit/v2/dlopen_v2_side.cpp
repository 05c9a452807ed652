#include <dlfcn.h>
#include <rocprofiler/v2/rocprofiler.h>

#include "dlopen_sides.hpp"

namespace dlopen_sides {

// The function `name` of the library behind `handle`, typed from the header (decltype only:
// this program does not link the library).
#define ROCPROF_LOOKUP(handle, name) reinterpret_cast<decltype(&::name)>(dlsym(handle, #name))

int v2_create_buffer(void* h) {
  auto fn = ROCPROF_LOOKUP(h, rocprofiler_create_buffer);
  rocprofiler_buffer_id_t id{};
  return fn == nullptr
             ? 1000
             : fn(
                   rocprofiler_session_id_t{12345},
                   [](const rocprofiler_record_header_t*, const rocprofiler_record_header_t*,
                      rocprofiler_session_id_t, rocprofiler_buffer_id_t) {},
                   4096, &id);
}

int v2_initialize(void* h) {
  auto fn = ROCPROF_LOOKUP(h, rocprofiler_initialize);
  return fn == nullptr ? 1000 : fn();
}

int v2_finalize(void* h) {
  auto fn = ROCPROF_LOOKUP(h, rocprofiler_finalize);
  return fn == nullptr ? 1000 : fn();
}

}  // namespace dlopen_sides
