// What a chip can measure, per profiler type, read from CUPTI's profiler host API without a GPU
// (cupti-notes §2(b), §5): base metrics of each type, their roll-ups and sub-metrics, their
// properties, whether a full metric name is valid, and the hardware metrics one pass can hold.
//
// Metric names are <unit>__<counter>[.<roll-up>][.<sub-metric>]: a base metric ("counter",
// "ratio" or "throughput", CUpti_MetricType) plus one suffix from its sub-metric list
// (".sum", ".avg.per_second", ".ratio", ".avg.pct_of_peak_sustained_elapsed", ...). A few
// base names carry a dotted prefix ("LTS.TriageCompute.lts__..."). A bare base name is not
// collectable.
//
// Everything is read once and cached; sub-metric lists are read per base metric on first use
// and the identical ones shared (on GH100 every counter has the same 44, every ratio the same
// 3, every throughput the same 8). Measured on the build machine (no GPU): the first host
// object of a process costs 0.4-0.6 s (CUPTI loads libnvperf_host), later ones 0.2-8 ms; the
// 3 650 GH100 base metrics take 4-9 ms, all their sub-metric lists 15-25 ms (150 179 full
// names), all their properties 20-57 ms; a validity check through ConfigAddMetrics 1-6 ms.
//
// Thread-safe (one mutex; nothing here is on a hot path). References returned stay valid for
// the catalogue's life.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "host_object.hpp"

namespace rocprof::cuda {

constexpr CUpti_MetricType all_metric_types[] = {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO,
                                                 CUPTI_METRIC_TYPE_THROUGHPUT};

// "counter", "ratio", "throughput".
const char* metric_type_name(CUpti_MetricType type);

// The chips this libcupti's host API profiles (cuptiProfilerHostGetSupportedChips).
host_status supported_chips(profiler_host_api& api, std::vector<std::string>& chips);

struct metric_properties {
  std::string description;
  std::string hw_unit;   // "sm", "smsp", "dram", ...
  std::string dim_unit;  // "warp", "byte", "gpc_cycle", "percent", ...
  CUpti_MetricType type = CUPTI_METRIC_TYPE_COUNTER;
};

// The verdict on one full metric name.
struct metric_check {
  bool valid = false;
  std::string base;    // the base metric it names, when one was recognised
  std::string suffix;  // the rest, with its leading '.'
  std::string reason;  // why not, when !valid
};

class metric_catalogue {
 public:
  // Opens the catalogue of `target` (one host object kept for the enumeration calls).
  static host_status open(profiler_host_api& api, host_target target,
                          std::unique_ptr<metric_catalogue>& out);

  const host_target& target() const { return target_; }

  // Base metrics of one type, in CUPTI's order.
  const std::vector<std::string>& base_metrics(CUpti_MetricType type);
  size_t base_metric_count();
  // The type of a base metric, if it is one.
  std::optional<CUpti_MetricType> base_type(const std::string& base);

  // Suffixes (".sum", ".avg.per_second", ...) valid after `base`; empty for an unknown name.
  const std::vector<std::string>& sub_metrics(const std::string& base);
  // Sum over all base metrics of their sub-metric counts (expands every list).
  size_t full_metric_count();

  // Description and units of a base or full metric name; nullptr when CUPTI does not know it.
  const metric_properties* properties(const std::string& name);

  // Is `full_name` collectable on this chip? Recognised structurally first (base + listed
  // suffix, so typos and AMD names are named precisely), then confirmed by ConfigAddMetrics on a
  // scratch host object. Cached per name.
  const metric_check& check(const std::string& full_name);

  // cuptiProfilerHostGetMaxNumHardwareMetricsPerPass (0 when CUPTI cannot say).
  size_t max_hardware_metrics_per_pass();

  profiler_host_api& api() { return *api_; }

 private:
  metric_catalogue(profiler_host_api& api, host_target target, host_object object);
  void load_base_metrics_locked();
  const std::vector<std::string>& sub_metrics_locked(const std::string& base);
  metric_check check_uncached_locked(const std::string& full_name);

  profiler_host_api* api_;
  host_target target_;
  host_object object_;
  std::mutex mutex_;
  bool base_loaded_ = false;
  std::map<CUpti_MetricType, std::vector<std::string>> base_by_type_;
  std::unordered_map<std::string, CUpti_MetricType> base_types_;
  // Distinct sub-metric lists; each base metric points at one of them.
  std::vector<std::unique_ptr<const std::vector<std::string>>> distinct_sub_lists_;
  std::unordered_map<std::string, const std::vector<std::string>*> sub_lists_;
  std::unordered_map<std::string, std::optional<metric_properties>> properties_;
  std::unordered_map<std::string, metric_check> checks_;
  std::optional<size_t> max_per_pass_;
};

}  // namespace rocprof::cuda
