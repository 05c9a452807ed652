#include "pm_sampling/device_samplers.hpp"

#include <time.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "counters/counter_sets.hpp"
#include "plugin_state.hpp"
#include "pm_sampling/pm_sampler.hpp"
#include "rocprof/common/c_boundary.hpp"

namespace rocprof::cuda {
namespace {

struct running {
  int device = 0;
  std::unique_ptr<pm_sampler> sampler;
};

struct registry {
  std::mutex mutex;
  std::once_flag once;
  std::unique_ptr<pm_sampling_api> api;
  std::string api_why;
  std::map<uint64_t, running> samplers;  // by handle
  uint64_t next_handle = 1;
};

registry& samplers() {
  static auto* r = new registry;  // leaked: a decode thread may run during exit
  return *r;
}

uint64_t boottime_ns() {
  timespec ts{};
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

thread_local std::string t_why;

template <typename Fn>
rocprofiler_status_t guarded_status(const char* where, Fn&& fn) {
  return c_boundary::guarded_or(where, ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES,
                                ROCPROFILER_STATUS_ERROR, std::forward<Fn>(fn));
}

rocprofiler_status_t start_sampler(rocprofiler_agent_id_t agent, const char* const* names,
                                   uint64_t count, uint64_t interval_ns,
                                   const rocprof_device_sample_sink_t* sink, uint64_t* handle) {
  registry& r = samplers();
  profiler_host_api* host = counter_host_api();
  if (host == nullptr) {
    t_why = "CUPTI's profiler host API is unavailable";
    return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
  }
  std::call_once(r.once, [&r] { r.api = open_pm_sampling(cupti(), r.api_why); });
  if (r.api == nullptr) {
    t_why = "PM sampling is unavailable: " + r.api_why;
    return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
  }
  cuda_counter_agent found;
  if (!plugin_counter_sets().agent(agent.handle, found)) {
    t_why = "not a CUDA agent";
    return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
  }
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto& entry : r.samplers)
    if (entry.second.device == found.device.device_ordinal) {
      t_why = "the device is sampled already (PM sampling is device-wide)";
      return ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT;
    }
  running run;
  run.device = found.device.device_ordinal;
  run.sampler = std::make_unique<pm_sampler>(*r.api, *host, *sink, boottime_ns);
  std::string chip = plugin_counter_sets().chip_of(agent.handle);
  const std::vector<std::string> metrics(names, names + count);
  const rocprofiler_status_t st = run.sampler->start(
      chip, metrics, pm_settings_for(static_cast<size_t>(run.device), interval_ns), t_why);
  if (st != ROCPROFILER_STATUS_SUCCESS) return st;
  *handle = r.next_handle++;
  r.samplers.emplace(*handle, std::move(run));
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t device_sampler_start(void*, rocprofiler_agent_id_t agent,
                                          const char* const* names, uint64_t count,
                                          uint64_t interval_ns,
                                          const rocprof_device_sample_sink_t* sink,
                                          uint64_t* sampler, const char** why) {
  t_why.clear();
  const rocprofiler_status_t st = guarded_status("cuda backend device_sampler_start", [&] {
    return start_sampler(agent, names, count, interval_ns, sink, sampler);
  });
  *why = t_why.c_str();
  return st;
}

rocprofiler_status_t device_sampler_drain(void*, uint64_t handle) {
  return guarded_status("cuda backend device_sampler_drain", [&] {
    registry& r = samplers();
    pm_sampler* s = nullptr;
    {
      std::lock_guard<std::mutex> lock(r.mutex);
      const auto it = r.samplers.find(handle);
      if (it == r.samplers.end()) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
      s = it->second.sampler.get();
    }
    s->drain();  // outside the registry lock: a decode may take ~100 ms
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

void device_sampler_stop(void*, uint64_t handle) {
  c_boundary::guarded_call("cuda backend device_sampler_stop", [&] {
    registry& r = samplers();
    std::unique_ptr<pm_sampler> stopped;
    {
      std::lock_guard<std::mutex> lock(r.mutex);
      const auto it = r.samplers.find(handle);
      if (it == r.samplers.end()) return;
      stopped = std::move(it->second.sampler);
      r.samplers.erase(it);
    }
    stopped->stop();
  });
}

}  // namespace

void install_device_samplers(rocprof_backend_t* out) {
  out->device_sampler_start = &device_sampler_start;
  out->device_sampler_drain = &device_sampler_drain;
  out->device_sampler_stop = &device_sampler_stop;
}

}  // namespace rocprof::cuda
