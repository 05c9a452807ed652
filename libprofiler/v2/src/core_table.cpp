// The core's functions, looked up in the core's own object (core_port.hpp says why).
#include <dlfcn.h>

#include "core_sdk.hpp"

namespace rocprof::v2::core_port {
namespace {

// The core's object: the one that defines rocprofiler_is_initialized (a name v2 lacks, so the
// linker binds it to the core; dladdr then names the file).
void* core_handle() {
  Dl_info where{};
  if (dladdr(reinterpret_cast<void*>(&::rocprofiler_is_initialized), &where) == 0 ||
      where.dli_fname == nullptr)
    return nullptr;
  return dlopen(where.dli_fname, RTLD_NOLOAD | RTLD_LAZY);
}

}  // namespace

const core_table& core() {
  static const core_table table = [] {
    core_table t;
    void* handle = core_handle();
    if (handle == nullptr) return t;
    t.complete = true;
#define ROCPROF_V2_LOOKUP(name)                                       \
  t.name = reinterpret_cast<decltype(&::name)>(dlsym(handle, #name)); \
  t.complete = t.complete && t.name != nullptr;
    ROCPROF_V2_CORE_FUNCTIONS(ROCPROF_V2_LOOKUP)
#undef ROCPROF_V2_LOOKUP
    return t;
  }();
  return table;
}

const char* kind_operation_name(rocprofiler_buffer_tracing_kind_t kind, int32_t operation) {
  const char* name = nullptr;
  uint64_t length = 0;
  const auto query = core().rocprofiler_query_buffer_tracing_kind_operation_name;
  if (query == nullptr || query(kind, operation, &name, &length) != ROCPROFILER_STATUS_SUCCESS)
    return nullptr;
  return name;
}

}  // namespace rocprof::v2::core_port
