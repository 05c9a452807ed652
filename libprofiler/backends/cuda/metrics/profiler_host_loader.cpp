#include "profiler_host_loader.hpp"

#include <dlfcn.h>

namespace rocprof::cuda {

profiler_host_library open_profiler_host(const cupti_library& lib) {
  profiler_host_library out;
  if (lib.handle == nullptr) {
    out.error = lib.error.empty() ? "libcupti is not loaded" : lib.error;
    return out;
  }
  cupti_profiler_host_table fn;
  std::string missing;
#define ROCPROF_CUPTI_RESOLVE_HOST(name)                                   \
  fn.name = reinterpret_cast<decltype(fn.name)>(dlsym(lib.handle, #name)); \
  if (fn.name == nullptr) missing += (missing.empty() ? "" : ", ") + std::string{#name};
  ROCPROF_CUPTI_PROFILER_HOST_FUNCTIONS(ROCPROF_CUPTI_RESOLVE_HOST)
#undef ROCPROF_CUPTI_RESOLVE_HOST
  if (!missing.empty()) {
    out.error = lib.path + " has no profiler host API (lacks " + missing + ")";
    return out;
  }
  out.api = std::make_unique<profiler_host_dl_api>(lib.fn, fn);
  return out;
}

}  // namespace rocprof::cuda
