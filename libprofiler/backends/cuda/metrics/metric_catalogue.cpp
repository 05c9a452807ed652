#include "metric_catalogue.hpp"

#include "metric_config.hpp"

#include <algorithm>
#include <utility>

namespace rocprof::cuda {
namespace {

const std::vector<std::string>& no_names() {
  static const std::vector<std::string> empty;
  return empty;
}

// A few valid suffixes to quote in an error: the roll-ups (one '.') when there are any.
std::string some_suffixes(const std::vector<std::string>& subs) {
  std::vector<std::string> shown;
  for (const std::string& s : subs)
    if (std::count(s.begin(), s.end(), '.') == 1) shown.push_back(s);
  if (shown.empty()) shown.assign(subs.begin(), subs.begin() + std::min<size_t>(subs.size(), 4));
  std::string out;
  for (const std::string& s : shown)
    out += (out.empty() ? "" : " ") + s;
  return out;
}

}  // namespace

const char* metric_type_name(CUpti_MetricType type) {
  switch (type) {
    case CUPTI_METRIC_TYPE_COUNTER:
      return "counter";
    case CUPTI_METRIC_TYPE_RATIO:
      return "ratio";
    case CUPTI_METRIC_TYPE_THROUGHPUT:
      return "throughput";
    default:
      return "unknown";
  }
}

host_status supported_chips(profiler_host_api& api, std::vector<std::string>& chips) {
  chips.clear();
  auto p = ROCPROF_HOST_PARAMS(CUpti_Profiler_Host_GetSupportedChips_Params);
  const CUptiResult r = api.supported_chips(&p);
  if (r != CUPTI_SUCCESS) return host_status::failure(api, r, "GetSupportedChips");
  for (size_t i = 0; i < p.numChips; ++i)
    if (p.ppChipNames[i] != nullptr) chips.emplace_back(p.ppChipNames[i]);
  return {};
}

metric_catalogue::metric_catalogue(profiler_host_api& api, host_target target, host_object object)
    : api_{&api}, target_{std::move(target)}, object_{std::move(object)} {}

host_status metric_catalogue::open(profiler_host_api& api, host_target target,
                                   std::unique_ptr<metric_catalogue>& out) {
  out.reset();
  host_object object;
  host_status st = host_object::open(api, target, object);
  if (!st.ok()) return st;
  out.reset(new metric_catalogue{api, std::move(target), std::move(object)});
  return st;
}

void metric_catalogue::load_base_metrics_locked() {
  if (base_loaded_) return;
  base_loaded_ = true;
  for (CUpti_MetricType type : all_metric_types) {
    auto p = ROCPROF_HOST_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params);
    p.pHostObject = object_.get();
    p.metricType = type;
    std::vector<std::string>& names = base_by_type_[type];
    if (!ROCPROF_CUPTI_CALL(*api_, api_->base_metrics(&p))) continue;
    names.reserve(p.numMetrics);
    for (size_t i = 0; i < p.numMetrics; ++i) {
      if (p.ppMetricNames[i] == nullptr) continue;
      names.emplace_back(p.ppMetricNames[i]);
      base_types_.emplace(names.back(), type);
    }
  }
}

const std::vector<std::string>& metric_catalogue::base_metrics(CUpti_MetricType type) {
  std::lock_guard<std::mutex> lock{mutex_};
  load_base_metrics_locked();
  auto it = base_by_type_.find(type);
  return it == base_by_type_.end() ? no_names() : it->second;
}

size_t metric_catalogue::base_metric_count() {
  std::lock_guard<std::mutex> lock{mutex_};
  load_base_metrics_locked();
  return base_types_.size();
}

std::optional<CUpti_MetricType> metric_catalogue::base_type(const std::string& base) {
  std::lock_guard<std::mutex> lock{mutex_};
  load_base_metrics_locked();
  auto it = base_types_.find(base);
  if (it == base_types_.end()) return std::nullopt;
  return it->second;
}

const std::vector<std::string>& metric_catalogue::sub_metrics_locked(const std::string& base) {
  if (auto it = sub_lists_.find(base); it != sub_lists_.end()) return *it->second;
  load_base_metrics_locked();
  auto type = base_types_.find(base);
  if (type == base_types_.end()) return no_names();
  auto p = ROCPROF_HOST_PARAMS(CUpti_Profiler_Host_GetSubMetrics_Params);
  p.pHostObject = object_.get();
  p.metricType = type->second;
  p.pMetricName = base.c_str();
  std::vector<std::string> subs;
  if (ROCPROF_CUPTI_CALL(*api_, api_->sub_metrics(&p))) {
    subs.reserve(p.numOfSubmetrics);
    for (size_t i = 0; i < p.numOfSubmetrics; ++i)
      if (p.ppSubMetrics[i] != nullptr) subs.emplace_back(p.ppSubMetrics[i]);
  }
  const std::vector<std::string>* shared = nullptr;
  for (const auto& list : distinct_sub_lists_) {
    if (*list == subs) {
      shared = list.get();
      break;
    }
  }
  if (shared == nullptr) {
    distinct_sub_lists_.push_back(
        std::make_unique<const std::vector<std::string>>(std::move(subs)));
    shared = distinct_sub_lists_.back().get();
  }
  sub_lists_.emplace(base, shared);
  return *shared;
}

const std::vector<std::string>& metric_catalogue::sub_metrics(const std::string& base) {
  std::lock_guard<std::mutex> lock{mutex_};
  return sub_metrics_locked(base);
}

size_t metric_catalogue::full_metric_count() {
  std::lock_guard<std::mutex> lock{mutex_};
  load_base_metrics_locked();
  size_t n = 0;
  for (const auto& entry : base_types_)
    n += sub_metrics_locked(entry.first).size();
  return n;
}

const metric_properties* metric_catalogue::properties(const std::string& name) {
  std::lock_guard<std::mutex> lock{mutex_};
  auto it = properties_.find(name);
  if (it == properties_.end()) {
    auto p = ROCPROF_HOST_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params);
    p.pHostObject = object_.get();
    p.pMetricName = name.c_str();
    std::optional<metric_properties> props;
    // An unknown name is an ordinary answer here (CUPTI_ERROR_INVALID_METRIC_NAME): no report.
    if (api_->metric_properties(&p) == CUPTI_SUCCESS) {
      props.emplace();
      props->description = p.pDescription != nullptr ? p.pDescription : "";
      props->hw_unit = p.pHwUnit != nullptr ? p.pHwUnit : "";
      props->dim_unit = p.pDimUnit != nullptr ? p.pDimUnit : "";
      props->type = p.metricType;
    }
    it = properties_.emplace(name, std::move(props)).first;
  }
  return it->second ? &*it->second : nullptr;
}

metric_check metric_catalogue::check_uncached_locked(const std::string& full_name) {
  metric_check c;
  const std::string where =
      std::string{" of "} + target_.chip + " (" + profiler_type_name(target_.type) + ")";
  load_base_metrics_locked();
  if (full_name.empty()) {
    c.reason = "empty metric name";
    return c;
  }
  if (base_types_.count(full_name) != 0) {
    c.base = full_name;
    c.reason = "'" + full_name + "' is a base metric: name a roll-up or sub-metric (" +
               some_suffixes(sub_metrics_locked(full_name)) + ")";
    return c;
  }
  // Longest base prefix first: a few base names themselves contain dots.
  for (size_t pos = full_name.rfind('.'); pos != std::string::npos && pos > 0;
       pos = full_name.rfind('.', pos - 1)) {
    std::string prefix = full_name.substr(0, pos);
    if (base_types_.count(prefix) != 0) {
      c.base = std::move(prefix);
      c.suffix = full_name.substr(pos);
      break;
    }
  }
  if (c.base.empty()) {
    c.reason = "'" + full_name + "' is not a metric" + where;
    return c;
  }
  const std::vector<std::string>& subs = sub_metrics_locked(c.base);
  if (std::find(subs.begin(), subs.end(), c.suffix) == subs.end()) {
    c.reason = "'" + c.suffix + "' is not a roll-up or sub-metric of " + c.base + " (it has " +
               std::to_string(subs.size()) + ", e.g. " + some_suffixes(subs) + ")";
    return c;
  }
  // Listed: CUPTI has the last word (some listed names cannot be scheduled, e.g. GH100's
  // CTC.TriageCompute.ctc__throughput.avg.pct_of_peak_sustained_active is NOT_SUPPORTED).
  const host_status st = try_metrics(*api_, target_, {full_name});
  if (!st.ok()) {
    c.reason = "CUPTI does not accept '" + full_name + "'" + where + ": " + st.message;
    return c;
  }
  c.valid = true;
  return c;
}

const metric_check& metric_catalogue::check(const std::string& full_name) {
  std::lock_guard<std::mutex> lock{mutex_};
  auto it = checks_.find(full_name);
  if (it == checks_.end()) it = checks_.emplace(full_name, check_uncached_locked(full_name)).first;
  return it->second;
}

size_t metric_catalogue::max_hardware_metrics_per_pass() {
  std::lock_guard<std::mutex> lock{mutex_};
  if (!max_per_pass_) {
    auto p = ROCPROF_HOST_PARAMS(CUpti_Profiler_Host_GetMaxNumHardwareMetricsPerPass_Params);
    p.profilerType = target_.type;
    p.pChipName = target_.chip.c_str();
    p.pCounterAvailabilityImage =
        target_.counter_availability.empty() ? nullptr : target_.counter_availability.data();
    max_per_pass_ =
        ROCPROF_CUPTI_CALL(*api_, api_->max_metrics_per_pass(&p)) ? p.maxMetricsPerPass : 0;
  }
  return *max_per_pass_;
}

}  // namespace rocprof::cuda
