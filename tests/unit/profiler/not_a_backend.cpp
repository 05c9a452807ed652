// A library named like a backend (librocprofiler-sdk-notabackend.so) that has the register
// entry but no manifest, as the tool libraries next to the backends have no manifest either:
// the core must never load it. Loading it would run this constructor, which leaves a mark.
#include <rocprofiler-sdk/backend/backend_abi.h>

#include <cstdlib>

namespace {

__attribute__((constructor)) void mark_loaded() {
  setenv("ROCPROF_TEST_NOT_A_BACKEND_LOADED", "1", 1);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) rocprofiler_status_t rocprof_backend_register(
    const rocprof_core_services_t*, rocprof_backend_t*) {
  return ROCPROFILER_STATUS_ERROR;
}
