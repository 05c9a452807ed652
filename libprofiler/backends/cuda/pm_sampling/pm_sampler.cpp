#include "pm_sampling/pm_sampler.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>

#include "metrics/metric_evaluation.hpp"

namespace rocprof::cuda {

pm_sampler_settings pm_settings_for(size_t device_index, uint64_t interval_ns) {
  pm_sampler_settings s;
  s.device_index = device_index;
  s.interval_ns = interval_ns;
  if (const char* mb = std::getenv("ROCPROF_SPM_HW_BUFFER_MB")) {
    const unsigned long long v = std::strtoull(mb, nullptr, 10);
    if (v != 0) s.hardware_buffer_bytes = static_cast<size_t>(v) << 20;
  }
  const uint64_t per_second = interval_ns != 0 ? 1000000000ull / interval_ns : 0;
  if (per_second > s.max_samples) s.max_samples = static_cast<size_t>(per_second);
  return s;
}

rocprofiler_status_t build_single_pass_config(profiler_host_api& host, const host_target& target,
                                              const std::vector<std::string>& metrics,
                                              metric_config& out, std::string& why) {
  const host_status built = build_metric_config(host, target, metrics, out);
  if (!built.ok()) {
    why = "PM sampling cannot collect these counters: " + built.message;
    return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
  }
  if (out.passes <= 1) return ROCPROFILER_STATUS_SUCCESS;
  // Name the culprits: the counters that need several passes even alone.
  std::string alone;
  for (const std::string& m : metrics) {
    metric_config single;
    if (build_metric_config(host, target, {m}, single).ok() && single.passes > 1)
      alone += (alone.empty() ? "" : ", ") + m + " (" + std::to_string(single.passes) + ")";
  }
  std::string all;
  for (const std::string& m : metrics)
    all += (all.empty() ? "" : ", ") + m;
  why = "device sampling (PM sampling) takes single-pass counter sets only; " + all +
        " together need " + std::to_string(out.passes) + " passes";
  if (!alone.empty()) why += "; passes needed alone: " + alone;
  return ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT;
}

pm_sampler::pm_sampler(pm_sampling_api& device, profiler_host_api& host,
                       rocprof_device_sample_sink_t sink, std::function<uint64_t()> boottime)
    : device_{device}, host_{host}, sink_{sink}, boottime_{std::move(boottime)} {}

rocprofiler_status_t pm_sampler::start(const std::string& chip,
                                       const std::vector<std::string>& metrics,
                                       const pm_sampler_settings& settings, std::string& why) {
  stop();
  if (settings.interval_ns < k_pm_min_interval_ns) {
    why = "sampling interval " + std::to_string(settings.interval_ns) +
          " ns is below the hardware minimum of " + std::to_string(k_pm_min_interval_ns) +
          " ns (CUPTI PM sampling)";
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  settings_ = settings;
  const auto fail = [&](const char* step, CUptiResult r) {
    why = std::string("PM sampling ") + step + " failed: " + device_.result_string(r) + " (" +
          std::to_string(static_cast<int>(r)) + ")";
    if (object_ != nullptr) device_.disable(object_);
    object_ = nullptr;
    return ROCPROFILER_STATUS_ERROR;
  };
  CUptiResult r = device_.initialize();
  if (r != CUPTI_SUCCESS) return fail("profiler initialisation", r);
  host_target target;
  target.chip = chip;
  target.type = CUPTI_PROFILER_TYPE_PM_SAMPLING;
  r = device_.counter_availability(settings.device_index, target.counter_availability);
  if (r != CUPTI_SUCCESS) return fail("counter availability", r);
  const rocprofiler_status_t planned =
      build_single_pass_config(host_, target, metrics, config_, why);
  if (planned != ROCPROFILER_STATUS_SUCCESS) return planned;
  if ((r = device_.enable(settings.device_index, &object_)) != CUPTI_SUCCESS)
    return fail("enable", r);
  r = device_.set_config(object_, config_.image, settings.hardware_buffer_bytes,
                         settings.interval_ns);
  if (r != CUPTI_SUCCESS) return fail("set config", r);
  const std::vector<const char*> names = c_names(config_.metrics);
  size_t size = 0;
  if ((r = device_.counter_data_size(object_, names, settings.max_samples, size)) != CUPTI_SUCCESS)
    return fail("counter data size", r);
  image_.assign(size, 0);
  if ((r = device_.counter_data_initialize(object_, image_)) != CUPTI_SUCCESS)
    return fail("counter data initialisation", r);
  consumed_ = 0;
  index_ = 0;
  last_end_ = 0;
  delivered_ = overflows_ = 0;
  const uint64_t cupti_now = device_.timestamp();
  clock_offset_ = static_cast<int64_t>(boottime_()) - static_cast<int64_t>(cupti_now);
  if ((r = device_.start(object_)) != CUPTI_SUCCESS) return fail("start", r);
  if (settings.decode_period_ms != 0) {
    {
      std::lock_guard<std::mutex> wake(wake_mutex_);
      quit_ = false;
    }
    thread_ = std::thread([this] { run_decode_thread(); });
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

void pm_sampler::run_decode_thread() {
  std::unique_lock<std::mutex> wake(wake_mutex_);
  while (!quit_) {
    wake_.wait_for(wake, std::chrono::milliseconds(settings_.decode_period_ms));
    if (quit_) break;
    wake.unlock();
    drain();
    wake.lock();
  }
}

void pm_sampler::drain() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (object_ != nullptr) decode_locked();
}

void pm_sampler::stop() {
  if (thread_.joinable()) {
    {
      std::lock_guard<std::mutex> wake(wake_mutex_);
      quit_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (object_ == nullptr) return;
  device_.stop(object_);
  decode_locked();
  device_.disable(object_);
  object_ = nullptr;
}

// Decodes until the hardware has nothing more, re-initialising a full image on the way. The
// image is also re-initialised once it is half used and everything in it is delivered, so that
// a decode rarely stops on a full image: on the H100 each such stop lost 2-5 ms of samples
// (every 20 000 samples: 514-810 of 310 000 at 10 kHz over 30 s).
void pm_sampler::decode_locked() {
  for (int round = 0; round < 64; ++round) {
    CUpti_PmSampling_DecodeStopReason reason{};
    bool overflow = false;
    const CUptiResult r = device_.decode(object_, image_, reason, overflow);
    if (overflow) ++overflows_;
    size_t completed = 0;
    if (device_.completed_samples(image_, completed) == CUPTI_SUCCESS && completed > consumed_) {
      deliver_locked(consumed_, completed);
      consumed_ = completed;
    }
    if (r != CUPTI_SUCCESS) return;
    const bool full = reason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;
    if (!full && consumed_ < settings_.max_samples / 2) return;
    if (device_.counter_data_initialize(object_, image_) != CUPTI_SUCCESS) return;
    consumed_ = 0;
    if (!full) return;
  }
}

void pm_sampler::deliver_locked(size_t from, size_t to) {
  std::vector<double> values;
  const counter_data_view view{image_.data(), image_.size()};
  for (size_t i = from; i < to; ++i) {
    uint64_t start = 0, end = 0;
    if (device_.sample_span(object_, image_, i, start, end) != CUPTI_SUCCESS) continue;
    const uint64_t this_index = index_++;
    if (this_index == 0) continue;  // spans Enable -> Start
    // A gap between spans is samples the hardware lost (overflow): count them in the index.
    if (last_end_ != 0 && start > last_end_ && settings_.interval_ns != 0) {
      const double missing = std::floor(static_cast<double>(start - last_end_) /
                                        static_cast<double>(settings_.interval_ns));
      if (missing >= 1) index_ += static_cast<uint64_t>(missing);
    }
    last_end_ = end;
    if (!evaluate_range(host_, config_, view, i, values).ok()) continue;
    const auto shift = [this](uint64_t t) {
      return static_cast<rocprofiler_timestamp_t>(static_cast<int64_t>(t) + clock_offset_);
    };
    ++delivered_;
    sink_.sample(sink_.user_data, index_ - 1, shift(start), shift(end), values.data(),
                 values.size());
  }
}

}  // namespace rocprof::cuda
