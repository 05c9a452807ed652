// One profiler host object (cuptiProfilerHostInitialize) for a chip and profiler type, owned:
// the destructor deinitialises it. Objects are cheap once libnvperf_host is loaded (~0.2 ms),
// and a failed ConfigAddMetrics leaves one unusable (every later call answers
// CUPTI_ERROR_UNKNOWN), so validity checks and each config take a fresh one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profiler_host_api.hpp"

namespace rocprof::cuda {

// What a host object is made for. Offline (no GPU) the availability image is empty; on a GPU
// the target side supplies it (cuptiProfilerGetCounterAvailability for the range profiler,
// cuptiPmSamplingGetCounterAvailability for PM sampling) and the host API then plans passes
// for the counters that device really exposes.
struct host_target {
  std::string chip;  // as cuptiDeviceGetChipName / cuptiProfilerHostGetSupportedChips spell it
  CUpti_ProfilerType type = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  std::vector<uint8_t> counter_availability;
};

// The outcome of a fallible host-API step; `message` says what failed, with CUPTI's own text.
struct host_status {
  CUptiResult code = CUPTI_SUCCESS;
  std::string message;
  bool ok() const { return code == CUPTI_SUCCESS; }

  // "<what>: CUPTI_ERROR_... (<code>)"
  static host_status failure(profiler_host_api& api, CUptiResult r, const std::string& what);
  // A refusal of ours, before CUPTI is asked (empty metric list, unknown name, ...).
  static host_status refused(std::string why);
};

// The C strings of `names`, for CUPTI's ppMetricNames (valid while `names` is unchanged).
std::vector<const char*> c_names(const std::vector<std::string>& names);

// "range_profiler" / "pm_sampling" (the names the JSON listing uses).
const char* profiler_type_name(CUpti_ProfilerType type);

class host_object {
 public:
  host_object() = default;
  host_object(const host_object&) = delete;
  host_object& operator=(const host_object&) = delete;
  host_object(host_object&& other) noexcept { swap(other); }
  host_object& operator=(host_object&& other) noexcept;
  ~host_object() { reset(); }

  // Initialises a host object for `target` into `out` (which is reset first).
  static host_status open(profiler_host_api& api, const host_target& target, host_object& out);

  CUpti_Profiler_Host_Object* get() const { return object_; }
  explicit operator bool() const { return object_ != nullptr; }
  void reset();

 private:
  void swap(host_object& other) noexcept;
  profiler_host_api* api_ = nullptr;
  CUpti_Profiler_Host_Object* object_ = nullptr;
};

}  // namespace rocprof::cuda
