// Kokkos Tools connector (librocprofiler-sdk-tool-kokkosp.so): Kokkos loads it as a profiling
// library and calls the kokkosp_* entry points below; each one becomes a ROCTx call, so Kokkos
// regions, kernels, sections, fences and events land in the marker trace (and, through the
// tool's --kernel-rename, name the GPU kernels they enclose). Effects follow
// rocprofv3-facts.md §10.
//
// Threads: Kokkos calls these on the thread that runs the construct; the section table is
// shared, so it takes a mutex (section calls are rare; ranges take no lock here).
// No exception reaches Kokkos: the ROCTx calls never throw, and the section calls (which
// allocate) run through the C-boundary guard.
#include <pthread.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <deque>
#include <mutex>
#include <string>

#include "rocprof/common/c_boundary.hpp"
#include "rocprofiler-sdk-roctx/roctx.h"

#define KOKKOSP_EXPORT extern "C" __attribute__((visibility("default")))

// The layout Kokkos passes (Kokkos_Profiling_C_Interface.h); declared here so the connector
// needs no Kokkos headers.
struct Kokkos_Profiling_KokkosPDeviceInfo {
  size_t deviceID;
};
struct Kokkos_Tools_ToolSettings {
  bool requires_global_fencing;
  bool padding[255];
};

namespace {

struct section {
  std::string label;
  roctx_range_id_t range = 0;
};

std::mutex sections_mutex;
std::deque<section> sections;  // index = Kokkos section id; deque keeps references stable

// Held across fork() so that a forked child never finds it taken by a thread that did not come
// along, nor the sections half-changed (registration only, when the library loads).
__attribute__((constructor)) void guard_sections_across_fork() {
  pthread_atfork([] { sections_mutex.lock(); }, [] { sections_mutex.unlock(); },
                 [] { sections_mutex.unlock(); });
}

bool env_flag(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return false;
  for (const char* no :
       {"0", "off", "false", "no", "n", "f", "OFF", "FALSE", "NO", "N", "F", "Off", "False", "No"})
    if (std::strcmp(value, no) == 0) return false;
  return true;
}

}  // namespace

KOKKOSP_EXPORT void kokkosp_request_tool_settings(const uint32_t /*count*/,
                                                  Kokkos_Tools_ToolSettings* settings) {
  if (settings != nullptr)
    settings->requires_global_fencing = env_flag("KOKKOS_TOOLS_GLOBALFENCES");
}

KOKKOSP_EXPORT void kokkosp_init_library(const int load_sequence, const uint64_t interface_version,
                                         const uint32_t /*device_count*/,
                                         Kokkos_Profiling_KokkosPDeviceInfo* /*devices*/) {
  std::printf("KokkosP: rocprofv3 Connector (sequence is %d, version: %llu)\n", load_sequence,
              static_cast<unsigned long long>(interface_version));
  std::fflush(stdout);
  roctxMarkA("Kokkos::Initialization Complete");
}

KOKKOSP_EXPORT void kokkosp_finalize_library() {
  std::printf("KokkosP: Finalization of rocprofv3 Connector. Complete.\n");
  std::fflush(stdout);
  roctxMarkA("Kokkos::Finalization Complete");
}

KOKKOSP_EXPORT void kokkosp_begin_parallel_for(const char* name, const uint32_t /*device*/,
                                               uint64_t* /*kernel_id*/) {
  roctxRangePushA(name);
}
KOKKOSP_EXPORT void kokkosp_end_parallel_for(const uint64_t /*kernel_id*/) {
  roctxRangePop();
}

KOKKOSP_EXPORT void kokkosp_begin_parallel_scan(const char* name, const uint32_t /*device*/,
                                                uint64_t* /*kernel_id*/) {
  roctxRangePushA(name);
}
KOKKOSP_EXPORT void kokkosp_end_parallel_scan(const uint64_t /*kernel_id*/) {
  roctxRangePop();
}

KOKKOSP_EXPORT void kokkosp_begin_parallel_reduce(const char* name, const uint32_t /*device*/,
                                                  uint64_t* /*kernel_id*/) {
  roctxRangePushA(name);
}
KOKKOSP_EXPORT void kokkosp_end_parallel_reduce(const uint64_t /*kernel_id*/) {
  roctxRangePop();
}

KOKKOSP_EXPORT void kokkosp_push_profile_region(const char* name) {
  roctxRangePushA(name);
}
KOKKOSP_EXPORT void kokkosp_pop_profile_region() {
  roctxRangePop();
}

KOKKOSP_EXPORT void kokkosp_create_profile_section(const char* name, uint32_t* section_id) {
  rocprof::c_boundary::guarded_call(__func__, [&] {
    std::lock_guard<std::mutex> lock(sections_mutex);
    sections.push_back(section{name != nullptr ? name : "", 0});
    if (section_id != nullptr) *section_id = static_cast<uint32_t>(sections.size() - 1);
  });
}

KOKKOSP_EXPORT void kokkosp_start_profile_section(const uint32_t section_id) {
  rocprof::c_boundary::guarded_call(__func__, [&] {
    std::lock_guard<std::mutex> lock(sections_mutex);
    if (section_id >= sections.size()) return;
    auto& entry = sections[section_id];
    entry.range = roctxRangeStartA(entry.label.c_str());
  });
}

KOKKOSP_EXPORT void kokkosp_stop_profile_section(const uint32_t section_id) {
  rocprof::c_boundary::guarded_call(__func__, [&] {
    std::lock_guard<std::mutex> lock(sections_mutex);
    if (section_id >= sections.size()) return;
    roctxRangeStop(sections[section_id].range);
  });
}

KOKKOSP_EXPORT void kokkosp_destroy_profile_section(const uint32_t /*section_id*/) {}

KOKKOSP_EXPORT void kokkosp_profile_event(const char* name) {
  roctxMarkA(name);
}

KOKKOSP_EXPORT void kokkosp_begin_fence(const char* name, const uint32_t /*device*/,
                                        uint64_t* fence_id) {
  const roctx_range_id_t id = roctxRangeStartA(name);
  if (fence_id != nullptr) *fence_id = id;
}
KOKKOSP_EXPORT void kokkosp_end_fence(const uint64_t fence_id) {
  roctxRangeStop(fence_id);
}
