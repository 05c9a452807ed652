#include "counters/device_sampling.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <system_error>
#include <thread>
#include <unordered_map>

#include "backend_loader.hpp"
#include "buffer.hpp"
#include "counters/counter_evaluate.hpp"
#include "counters/counter_store.hpp"
#include "counters/device_counting.hpp"
#include "counters/spm_service.hpp"
#include "guarded.hpp"
#include "limits.hpp"
#include "rocprofiler-sdk/spm.h"
#include "thread_state.hpp"

namespace rocprof::core::counters {

rocprofiler_status_t agent_sampler::start(const counter_config* config, uint64_t interval_ns,
                                          std::string& why) {
  stop();
  std::shared_ptr<const agent_counters> agent;
  rocprofiler_status_t status = counter_store::get().agent(config->agent, agent);
  if (status != ROCPROFILER_STATUS_SUCCESS) {
    why = "the config's agent has no counters";
    return status;
  }
  const rocprof_backend_t& b = agent->backend;
  if (b.device_sampler_start == nullptr || b.device_sampler_drain == nullptr ||
      b.device_sampler_stop == nullptr) {
    why = std::string("the ") + (b.name != nullptr ? b.name : "agent's") +
          " backend cannot sample counters device-wide";
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
  }
  std::vector<const char*> names;
  for (const std::string& n : config->native)
    names.push_back(n.c_str());
  {
    std::lock_guard<std::mutex> lock(mutex_);
    config_ = config;
    accumulated_.assign(native_value_count(*config), 0.0);
    last_index_ = lost_ = received_ = 0;
  }
  backend_ = b;
  sink_.size = sizeof(sink_);
  sink_.user_data = this;
  sink_.sample = &agent_sampler::on_sample;
  if (names.empty()) return ROCPROFILER_STATUS_SUCCESS;  // constants only: nothing to sample
  const char* backend_why = nullptr;
  uint64_t handle = 0;
  status = b.device_sampler_start(b.backend_data, config->agent, names.data(), names.size(),
                                  interval_ns, &sink_, &handle, &backend_why);
  if (status != ROCPROFILER_STATUS_SUCCESS) {
    why = backend_why != nullptr ? backend_why : "the backend refused to sample";
    return status;
  }
  sampler_ = handle;
  arm_exit_stop(backend_call::first_start);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t agent_sampler::drain() {
  if (sampler_ == 0) return ROCPROFILER_STATUS_SUCCESS;
  const rocprofiler_status_t status =
      backend_.device_sampler_drain(backend_.backend_data, sampler_);
  arm_exit_stop(backend_call::first_drain);
  return status;
}

void agent_sampler::stop() {
  if (sampler_ == 0) return;
  backend_.device_sampler_stop(backend_.backend_data, sampler_);
  sampler_ = 0;
  arm_exit_stop(backend_call::first_stop);
}

bool agent_sampler::take(std::vector<rocprofiler_counter_record_t>& out) {
  std::vector<double> values;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (config_ == nullptr) return true;
    values.swap(accumulated_);
    accumulated_.assign(values.size(), 0.0);
  }
  return evaluate_config(*config_, values.data(), values.size(), out);
}

void agent_sampler::on_sample(void* self, uint64_t index, rocprofiler_timestamp_t start,
                              rocprofiler_timestamp_t end, const double* values, uint64_t count) {
  auto* s = static_cast<agent_sampler*>(self);
  {
    std::lock_guard<std::mutex> lock(s->mutex_);
    if (s->last_index_ != 0 && index > s->last_index_ + 1) s->lost_ += index - s->last_index_ - 1;
    s->last_index_ = index;
    ++s->received_;
    if (s->mode_ == mode::accumulate) {
      for (uint64_t i = 0; i < count && i < s->accumulated_.size(); ++i)
        s->accumulated_[i] += values[i];
      return;
    }
  }
  s->write_timeline(index, start, end, values, count);
}

// One record per counter value of the sample, into the backend thread's lane of the buffer.
void agent_sampler::write_timeline(uint64_t index, rocprofiler_timestamp_t start,
                                   rocprofiler_timestamp_t end, const double* values,
                                   uint64_t count) {
  if (target_ == nullptr || target_->destroyed.load() || config_ == nullptr) return;
  std::vector<rocprofiler_counter_record_t> evaluated;
  if (!evaluate_config(*config_, values, count, evaluated)) return;
  thread_state* st = current_thread();
  if (st == nullptr) return;
  for (const rocprofiler_counter_record_t& r : evaluated) {
    rocprofiler_spm_sample_record_t rec{};
    rec.size = sizeof(rec);
    rec.agent_id = config_->agent;
    rec.start_timestamp = start;
    rec.end_timestamp = end;
    rec.id = r.id;
    rec.counter_value = r.counter_value;
    rec.sample_index = index;
    const reservation room = buffer_reserve(target_, st, ROCPROFILER_BUFFER_CATEGORY_COUNTERS,
                                            ROCPROFILER_COUNTER_RECORD_SPM_SAMPLE, sizeof(rec));
    if (room.record == nullptr) continue;  // dropped: the buffer counts it
    std::memcpy(room.record, &rec, sizeof(rec));
    buffer_commit(room);
  }
}

namespace {

std::mutex g_owner_mutex;
std::unordered_map<uint64_t, uint32_t> g_agent_owner;  // agent handle -> context index

}  // namespace

bool claim_agent(rocprofiler_agent_id_t agent, uint32_t context_index) {
  std::lock_guard<std::mutex> lock(g_owner_mutex);
  const auto found = g_agent_owner.find(agent.handle);
  if (found != g_agent_owner.end()) return found->second == context_index;
  g_agent_owner.emplace(agent.handle, context_index);
  return true;
}

void release_agent(rocprofiler_agent_id_t agent, uint32_t context_index) {
  std::lock_guard<std::mutex> lock(g_owner_mutex);
  const auto found = g_agent_owner.find(agent.handle);
  if (found != g_agent_owner.end() && found->second == context_index) g_agent_owner.erase(found);
}

std::string& last_start_error() {
  thread_local std::string why;
  return why;
}

rocprofiler_status_t start_device_sampling(uint32_t context_index) {
  last_start_error().clear();
  if (device_sampling_closed()) {
    last_start_error() = device_sampling_closed_reason();
    return ROCPROFILER_STATUS_ERROR_FINALIZED;
  }
  rocprofiler_status_t status = start_device_counting(context_index);
  if (status == ROCPROFILER_STATUS_SUCCESS) status = start_spm(context_index);
  if (status != ROCPROFILER_STATUS_SUCCESS) {
    stop_device_sampling(context_index);
    if (status == ROCPROFILER_STATUS_ERROR_FINALIZED) return status;  // exiting: no news
    const std::string message = "device counter sampling could not start: " + last_start_error();
    warn_once(message.c_str(), message.c_str());
  }
  return status;
}

void stop_device_sampling(uint32_t context_index) {
  stop_spm(context_index);
  stop_device_counting(context_index);
}

void drain_all_device_sampling() {
  drain_all_spm();
}

namespace {

std::atomic<bool> g_closed{false};

// A start in progress on a tool's thread (one CUPTI PM sampling start takes about a second)
// is waited for this long.
constexpr uint64_t k_exit_wait_ms = 10000;

void stop_everything_for_exit() {
  g_closed.store(true);  // before looking at the services: a start checks it after locking
  for (uint32_t i = 0; i < max_contexts; ++i) {
    stop_spm(i);
    if (!stop_device_counting(i, k_exit_wait_ms))
      warn_once("device-counting-exit",
                "device counting: a start or sample still ran at exit; its sampler was left");
  }
}

void stop_at_exit() {
  guarded_call("device sampling exit stop", [] {
    // On a thread of its own: at exit() the main thread's thread_local state is gone, and
    // the last SPM samples are written into the buffers through the stopping thread's lane.
    try {
      std::thread helper{stop_everything_for_exit};
      helper.join();
    } catch (const std::system_error&) {
      stop_everything_for_exit();
    }
  });
}

}  // namespace

void arm_exit_stop(backend_call after) {
  static std::once_flag once[3];
  std::call_once(once[static_cast<int>(after)], [] { std::atexit(stop_at_exit); });
}

bool device_sampling_closed() {
  return g_closed.load();
}

const char* device_sampling_closed_reason() {
  return "the process is exiting: device sampling was stopped before the GPU libraries' "
         "teardown";
}

}  // namespace rocprof::core::counters
