#include "counters/range_session.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "counters/counter_timing.hpp"
#include "metrics/metric_evaluation.hpp"

namespace rocprof::cuda {
namespace {

// cuptiProfilerInitialize is process-wide; CUPTI accepts it again, but once is enough.
std::atomic<bool> g_profiler_initialized{false};

}  // namespace

range_session::range_session(range_profiler_api& target, profiler_host_api& host, CUcontext ctx,
                             size_t device_index, std::string chip)
    : target_{target},
      host_{host},
      ctx_{ctx},
      device_index_{device_index},
      chip_{std::move(chip)} {}

std::string range_session::failure(const char* what, CUptiResult r) {
  return std::string(what) + ": " + target_.result_string(r) + " (" +
         std::to_string(static_cast<int>(r)) + ")";
}

bool range_session::setup(std::string& why) {
  if (set_up_) return object_ != nullptr;
  set_up_ = true;
  const counter_timer timer{counter_phase::setup};
  if (!g_profiler_initialized.load()) {
    if (const CUptiResult r = target_.initialize(); r != CUPTI_SUCCESS) {
      why = failure("cuptiProfilerInitialize", r);
      return false;
    }
    g_profiler_initialized.store(true);
  }
  if (chip_.empty()) target_.chip_name(device_index_, chip_);
  if (const CUptiResult r = target_.counter_availability(ctx_, availability_); r != CUPTI_SUCCESS) {
    why = failure("cuptiProfilerGetCounterAvailability", r);
    return false;
  }
  if (const CUptiResult r = target_.enable(ctx_, &object_); r != CUPTI_SUCCESS) {
    object_ = nullptr;
    why = failure("cuptiRangeProfilerEnable", r);
    return false;
  }
  return true;
}

bool range_session::init_data(prepared& p, std::string& why) {
  const counter_timer timer{counter_phase::data_init};
  std::vector<const char*> names = c_names(p.config.metrics);
  size_t size = 0;
  if (const CUptiResult r = target_.counter_data_size(object_, names, max_ranges, size);
      r != CUPTI_SUCCESS) {
    why = failure("cuptiRangeProfilerGetCounterDataSize", r);
    return false;
  }
  p.data.assign(size, 0);
  if (const CUptiResult r = target_.counter_data_initialize(object_, p.data); r != CUPTI_SUCCESS) {
    why = failure("cuptiRangeProfilerCounterDataImageInitialize", r);
    return false;
  }
  p.seen = 0;
  return true;
}

range_session::prepared* range_session::prepare(const counter_set& set, std::string& why) {
  auto found = prepared_.find(set.handle);
  if (found != prepared_.end()) return &found->second;
  const counter_timer timer{counter_phase::config_image};
  prepared p;
  const host_target target{chip_.empty() ? set.chip : chip_, CUPTI_PROFILER_TYPE_RANGE_PROFILER,
                           availability_};
  const host_status st = build_metric_config(host_, target, set.metrics, p.config);
  if (!st.ok()) {
    why = st.message;
    return nullptr;
  }
  // The kernel's duration: the set's own metric, or one added where it costs no pass
  // (kernel_durations in end()).
  const auto own = std::find(set.metrics.begin(), set.metrics.end(), kernel_duration_metric);
  if (own != set.metrics.end()) {
    p.duration_index = static_cast<int>(own - set.metrics.begin());
  } else {
    std::vector<std::string> timed = set.metrics;
    timed.push_back(kernel_duration_metric);
    metric_config with_duration;
    if (build_metric_config(host_, target, timed, with_duration).ok() &&
        with_duration.passes == p.config.passes) {
      p.config = std::move(with_duration);
      p.duration_index = static_cast<int>(set.metrics.size());
      p.duration_added = true;
    }
  }
  return &prepared_.emplace(set.handle, std::move(p)).first->second;
}

size_t range_session::passes(const counter_set& set, std::string& why) {
  if (!setup(why)) {
    if (why.empty()) why = "the range profiler could not be set up in this context";
    return 0;
  }
  const prepared* p = prepare(set, why);
  return p != nullptr ? static_cast<size_t>(p->config.passes) : 0;
}

bool range_session::activate(const counter_set& set, CUpti_ProfilerReplayMode replay,
                             std::string& why) {
  prepared* found = prepare(set, why);
  if (found == nullptr) return false;
  if (active_ != 0) {
    // Another set (or replay mode) is configured: only a new profiler object takes a new
    // config (probe Q2), and counter data images belong to the object they were initialised
    // for.
    const counter_timer timer{counter_phase::switch_set};
    if (const CUptiResult r = target_.disable(object_); r != CUPTI_SUCCESS) {
      why = failure("cuptiRangeProfilerDisable", r);
      return false;
    }
    object_ = nullptr;
    active_ = 0;
    ++switches_;
    if (const CUptiResult r = target_.enable(ctx_, &object_); r != CUPTI_SUCCESS) {
      object_ = nullptr;
      why = failure("cuptiRangeProfilerEnable", r);
      return false;
    }
    for (auto& [handle, p] : prepared_)
      p.data.clear();
  }
  prepared& p = *found;
  if (p.data.empty() && !init_data(p, why)) return false;
  auto params = CUpti_RangeProfiler_SetConfig_Params{};
  params.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
  params.pRangeProfilerObject = object_;
  params.configSize = p.config.image.size();
  params.pConfig = p.config.image.data();
  params.counterDataImageSize = p.data.size();
  params.pCounterDataImage = p.data.data();
  params.range = CUPTI_AutoRange;
  params.replayMode = replay;
  params.maxRangesPerPass = max_ranges;
  params.numNestingLevels = 1;
  params.minNestingLevel = 1;
  CUptiResult r = CUPTI_SUCCESS;
  {
    const counter_timer timer{counter_phase::set_config};
    r = target_.set_config(&params);
  }
  if (r != CUPTI_SUCCESS) {
    why = failure("cuptiRangeProfilerSetConfig", r);
    return false;
  }
  active_ = set.handle;
  active_replay_ = replay;
  return true;
}

bool range_session::begin(const counter_set& set, CUpti_ProfilerReplayMode replay, size_t room,
                          std::string& why) {
  if (started_ != 0) {
    if (started_ == set.handle && active_replay_ == replay) return true;  // a batch runs on
    why = "the range profiler is running with another counter set";
    return false;
  }
  if (!setup(why)) {
    if (why.empty()) why = "the range profiler could not be set up in this context";
    return false;
  }
  if ((active_ != set.handle || active_replay_ != replay) && !activate(set, replay, why))
    return false;
  prepared& p = prepared_.at(set.handle);
  // Room for the ranges to come (a graph may add one per node): start the image afresh.
  if (p.seen + room > max_ranges && !init_data(p, why)) return false;
  CUptiResult r = CUPTI_SUCCESS;
  {
    const counter_timer timer{counter_phase::start};
    r = target_.start(object_);
  }
  if (r != CUPTI_SUCCESS) {
    // PC sampling active in this context makes Start fail (probe H8).
    why = failure("cuptiRangeProfilerStart", r) +
          " (PC sampling and counters cannot share a CUDA context)";
    return false;
  }
  started_ = set.handle;
  return true;
}

namespace {
bool range_names_printed() {
  static const bool printed = [] {
    const char* value = std::getenv("ROCPROF_CUDA_COUNTER_RANGES");
    return value != nullptr && std::strcmp(value, "1") == 0;
  }();
  return printed;
}
}  // namespace

bool range_session::end(std::vector<std::vector<double>>& ranges, std::string& why,
                        std::vector<uint64_t>* kernel_durations) {
  ranges.clear();
  if (kernel_durations != nullptr) kernel_durations->clear();
  if (started_ == 0) {
    why = "the profiler was not started";
    return false;
  }
  prepared& p = prepared_.at(started_);
  started_ = 0;
  bool all_passes = false;
  CUptiResult r = CUPTI_SUCCESS;
  {
    const counter_timer timer{counter_phase::stop};
    r = target_.stop(object_, all_passes);
  }
  if (r != CUPTI_SUCCESS) {
    why = failure("cuptiRangeProfilerStop", r);
    return false;
  }
  if (!all_passes && replays_itself(active_replay_)) {
    // One pass was planned; a set that needs more must not be collected by user replay.
    why = "cuptiRangeProfilerStop: not all passes were submitted (user replay of one pass)";
    return false;
  }
  size_t dropped = 0;
  {
    const counter_timer timer{counter_phase::decode};
    r = target_.decode(object_, dropped);
  }
  if (r != CUPTI_SUCCESS) {
    why = failure("cuptiRangeProfilerDecodeData", r);
    return false;
  }
  size_t total = 0;
  {
    const counter_timer timer{counter_phase::data_info};
    r = target_.counter_data_ranges(p.data, total);
  }
  if (r != CUPTI_SUCCESS) {
    why = failure("cuptiRangeProfilerGetCounterDataInfo", r);
    return false;
  }
  const counter_timer timer{counter_phase::evaluate};
  const counter_data_view view{p.data.data(), p.data.size()};
  for (size_t i = p.seen; i < total; ++i) {
    std::vector<double> values;
    const host_status st = evaluate_range(host_, p.config, view, i, values);
    if (!st.ok()) {
      why = st.message;
      p.seen = total;
      return false;
    }
    const size_t at = static_cast<size_t>(p.duration_index);
    const double duration = p.duration_index >= 0 && at < values.size() ? values[at] : 0;
    if (p.duration_added && at < values.size()) values.pop_back();  // not the set's value
    if (kernel_durations != nullptr)
      kernel_durations->push_back(duration > 0 ? static_cast<uint64_t>(duration + 0.5) : 0);
    if (range_names_printed()) {
      std::string name;
      (void)range_name(host_, view, i, name);  // a name CUPTI refuses stays empty
      std::fprintf(stderr, "rocprofv3 [cuda]: counters: range %zu of context %p: '%s', %.0f ns\n",
                   i, static_cast<void*>(ctx_), name.c_str(), duration);
    }
    ranges.push_back(std::move(values));
  }
  p.seen = total;
  if (dropped > 0) why = std::to_string(dropped) + " ranges were dropped (counter data full)";
  return true;
}

}  // namespace rocprof::cuda
