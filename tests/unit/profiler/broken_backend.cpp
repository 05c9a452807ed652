// A backend (it has a manifest) that cannot be loaded: it needs a symbol nothing defines.
#include <rocprofiler-sdk/backend/backend_abi.h>

extern "C" int rocprof_test_symbol_nobody_defines(void);

extern "C" {
__attribute__((
    visibility("default"))) extern const rocprof_backend_manifest_t rocprof_backend_manifest;
const rocprof_backend_manifest_t rocprof_backend_manifest = {sizeof(rocprof_backend_manifest_t),
                                                             ROCPROF_BACKEND_ABI_VERSION,
                                                             0,
                                                             "broken",
                                                             nullptr,
                                                             0,
                                                             nullptr,
                                                             0,
                                                             nullptr};  // no injection variable

__attribute__((visibility("default"))) rocprofiler_status_t rocprof_backend_register(
    const rocprof_core_services_t*, rocprof_backend_t*) {
  return rocprof_test_symbol_nobody_defines() == 0 ? ROCPROFILER_STATUS_SUCCESS
                                                   : ROCPROFILER_STATUS_ERROR;
}
}
