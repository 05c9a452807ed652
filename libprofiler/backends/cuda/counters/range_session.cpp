#include "counters/range_session.hpp"

#include <atomic>

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

bool range_session::activate(const counter_set& set, std::string& why) {
  auto found = prepared_.find(set.handle);
  if (found == prepared_.end()) {
    prepared p;
    const host_status st =
        build_metric_config(host_,
                            host_target{chip_.empty() ? set.chip : chip_,
                                        CUPTI_PROFILER_TYPE_RANGE_PROFILER, availability_},
                            set.metrics, p.config);
    if (!st.ok()) {
      why = st.message;
      return false;
    }
    found = prepared_.emplace(set.handle, std::move(p)).first;
  }
  if (active_ != 0) {
    // Another set is configured: only a new profiler object takes a new config (probe Q2),
    // and counter data images belong to the object they were initialised for.
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
  prepared& p = found->second;
  if (p.data.empty() && !init_data(p, why)) return false;
  auto params = CUpti_RangeProfiler_SetConfig_Params{};
  params.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
  params.pRangeProfilerObject = object_;
  params.configSize = p.config.image.size();
  params.pConfig = p.config.image.data();
  params.counterDataImageSize = p.data.size();
  params.pCounterDataImage = p.data.data();
  params.range = CUPTI_AutoRange;
  params.replayMode = CUPTI_KernelReplay;
  params.maxRangesPerPass = max_ranges;
  params.numNestingLevels = 1;
  params.minNestingLevel = 1;
  if (const CUptiResult r = target_.set_config(&params); r != CUPTI_SUCCESS) {
    why = failure("cuptiRangeProfilerSetConfig", r);
    return false;
  }
  active_ = set.handle;
  return true;
}

bool range_session::begin(const counter_set& set, std::string& why) {
  if (!setup(why)) {
    if (why.empty()) why = "the range profiler could not be set up in this context";
    return false;
  }
  if (active_ != set.handle && !activate(set, why)) return false;
  prepared& p = prepared_.at(set.handle);
  // Room for this launch's ranges (a graph may add one per node): start the image afresh.
  if (p.seen + max_ranges / 4 > max_ranges && !init_data(p, why)) return false;
  if (const CUptiResult r = target_.start(object_); r != CUPTI_SUCCESS) {
    // PC sampling active in this context makes Start fail (probe H8).
    why = failure("cuptiRangeProfilerStart", r) +
          " (PC sampling and counters cannot share a CUDA context)";
    return false;
  }
  started_ = set.handle;
  return true;
}

bool range_session::end(std::vector<std::vector<double>>& ranges, std::string& why) {
  ranges.clear();
  if (started_ == 0) {
    why = "the profiler was not started";
    return false;
  }
  prepared& p = prepared_.at(started_);
  started_ = 0;
  bool all_passes = false;
  if (const CUptiResult r = target_.stop(object_, all_passes); r != CUPTI_SUCCESS) {
    why = failure("cuptiRangeProfilerStop", r);
    return false;
  }
  size_t dropped = 0;
  if (const CUptiResult r = target_.decode(object_, dropped); r != CUPTI_SUCCESS) {
    why = failure("cuptiRangeProfilerDecodeData", r);
    return false;
  }
  size_t total = 0;
  if (const CUptiResult r = target_.counter_data_ranges(p.data, total); r != CUPTI_SUCCESS) {
    why = failure("cuptiRangeProfilerGetCounterDataInfo", r);
    return false;
  }
  const counter_data_view view{p.data.data(), p.data.size()};
  for (size_t i = p.seen; i < total; ++i) {
    std::vector<double> values;
    const host_status st = evaluate_range(host_, p.config, view, i, values);
    if (!st.ok()) {
      why = st.message;
      p.seen = total;
      return false;
    }
    ranges.push_back(std::move(values));
  }
  p.seen = total;
  if (dropped > 0) why = std::to_string(dropped) + " ranges were dropped (counter data full)";
  return true;
}

}  // namespace rocprof::cuda
