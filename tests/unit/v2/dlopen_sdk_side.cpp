#include <dlfcn.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include "dlopen_sides.hpp"

namespace dlopen_sides {

// The function `name` of the library behind `handle`, typed from the header (decltype only:
// this program does not link the library).
#define ROCPROF_LOOKUP(handle, name) reinterpret_cast<decltype(&::name)>(dlsym(handle, #name))

int core_create_buffer(void* h) {
  auto fn = ROCPROF_LOOKUP(h, rocprofiler_create_buffer);
  rocprofiler_buffer_id_t id{};
  return fn == nullptr
             ? -1000
             : fn(
                   rocprofiler_context_id_t{0}, 4096, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                   [](rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                      rocprofiler_record_header_t**, size_t, void*, uint64_t) {},
                   nullptr, &id);
}

int core_initialized(void* h) {
  auto fn = ROCPROF_LOOKUP(h, rocprofiler_is_initialized);
  int status = -1;
  if (fn != nullptr) fn(&status);
  return status;
}

}  // namespace dlopen_sides
