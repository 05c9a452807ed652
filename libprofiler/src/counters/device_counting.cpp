#include "counters/device_counting.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <thread>
#include <vector>

#include "agents.hpp"
#include "backend_loader.hpp"
#include "buffer.hpp"
#include "context.hpp"
#include "counters/counter_config.hpp"
#include "counters/device_sampling.hpp"
#include "guarded.hpp"
#include "limits.hpp"
#include "registration.hpp"
#include "rocprofiler-sdk/device_counting_service.h"
#include "thread_state.hpp"

namespace rocprof::core::counters {
namespace {

enum service_state : int { k_disabled, k_locked, k_enabled };

struct counted_agent {
  rocprofiler_agent_id_t agent{};
  rocprofiler_device_counting_service_cb_t callback = nullptr;
  void* user_data = nullptr;
  uint64_t chosen = 0;  // the config set_config chose during the last start
  std::unique_ptr<agent_sampler> sampler;
};

struct device_service {
  buffer* target = nullptr;
  std::atomic<int> state{k_disabled};
  std::vector<std::unique_ptr<counted_agent>> agents;
};

// Created during configuration only; read afterwards without a lock.
std::unique_ptr<device_service> g_services[max_contexts];

// Set on the thread running the tool's callbacks of a start: set_config works only there.
thread_local device_service* t_starting = nullptr;

// The hardware's sampling interval behind the service: a sample call returns what the
// completed hardware samples hold, so this is its time resolution.
uint64_t hardware_interval_ns() {
  const char* text = std::getenv("ROCPROF_DEVICE_COUNTING_INTERVAL_NS");
  const uint64_t v = text != nullptr ? std::strtoull(text, nullptr, 10) : 0;
  return v != 0 ? v : 1000000;
}

rocprofiler_status_t set_config(rocprofiler_context_id_t context_id,
                                rocprofiler_counter_config_id_t config_id) {
  return guarded(__func__, [&] {
    const context* ctx = find_context(context_id);
    device_service* svc = ctx != nullptr ? g_services[ctx->index].get() : nullptr;
    if (svc == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID;
    const counter_config* config = find_config(config_id.handle);
    if (config == nullptr || config->destroyed.load())
      return ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND;
    if (t_starting != svc || svc->state.load() != k_locked)
      return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    for (const std::unique_ptr<counted_agent>& a : svc->agents) {
      if (a->agent.handle != config->agent.handle) continue;
      a->chosen = config->id;
      return ROCPROFILER_STATUS_SUCCESS;
    }
    return ROCPROFILER_STATUS_ERROR_AGENT_MISMATCH;
  });
}

// Stops and forgets every agent's sampler (state held by the caller).
void stop_agents(device_service& svc, uint32_t context_index) {
  for (const std::unique_ptr<counted_agent>& a : svc.agents) {
    if (!a->sampler) continue;
    a->sampler->stop();
    a->sampler.reset();
    release_agent(a->agent, context_index);
  }
}

void write_to_buffer(buffer* b, const std::vector<rocprofiler_counter_record_t>& records) {
  if (b == nullptr || b->destroyed.load()) return;
  thread_state* st = current_thread();
  if (st == nullptr) return;
  for (const rocprofiler_counter_record_t& r : records) {
    const reservation slot = buffer_reserve(b, st, ROCPROFILER_BUFFER_CATEGORY_COUNTERS,
                                            ROCPROFILER_COUNTER_RECORD_VALUE, sizeof(r));
    if (slot.record == nullptr) continue;
    std::memcpy(slot.record, &r, sizeof(r));
    buffer_commit(slot);
  }
}

// One read of every agent: CONTEXT_ERROR when a start, stop or other read holds the service.
rocprofiler_status_t read_service(device_service& svc, rocprofiler_user_data_t user_data,
                                  std::vector<rocprofiler_counter_record_t>& out) {
  int expected = k_enabled;
  if (!svc.state.compare_exchange_strong(expected, k_locked))
    return ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR;
  rocprofiler_status_t status = ROCPROFILER_STATUS_SUCCESS;
  for (const std::unique_ptr<counted_agent>& a : svc.agents) {
    if (!a->sampler) continue;
    if (a->sampler->drain() != ROCPROFILER_STATUS_SUCCESS) status = ROCPROFILER_STATUS_ERROR;
    const size_t first = out.size();
    if (!a->sampler->take(out)) status = ROCPROFILER_STATUS_ERROR;
    for (size_t i = first; i < out.size(); ++i) {
      out[i].user_data = user_data;
      out[i].agent_id = a->agent;
    }
  }
  svc.state.store(k_enabled);
  return status;
}

// ROCPROFILER_COUNTER_FLAG_ASYNC: reads run on one core thread, in the order asked.
class async_reader {
 public:
  static async_reader& get() {
    static auto* reader = new async_reader();  // never destroyed: its thread may outlive exit
    return *reader;
  }
  void post(uint32_t context_index, rocprofiler_user_data_t user_data) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!started_) {
      std::thread([this] { run(); }).detach();
      started_ = true;
    }
    queue_.push_back({context_index, user_data});
    wake_.notify_one();
  }

 private:
  struct request {
    uint32_t context_index;
    rocprofiler_user_data_t user_data;
  };
  void run() {
    for (;;) {
      request r{};
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return !queue_.empty(); });
        r = queue_.front();
        queue_.pop_front();
      }
      device_service* svc = g_services[r.context_index].get();
      std::vector<rocprofiler_counter_record_t> records;
      // A start or stop in progress: wait for it (a disabled service reads nothing).
      for (int tries = 0; tries < 10000 && svc->state.load() == k_locked; ++tries)
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      if (read_service(*svc, r.user_data, records) != ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR)
        write_to_buffer(svc->target, records);
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<request> queue_;
  bool started_ = false;
};

}  // namespace

rocprofiler_status_t start_device_counting(uint32_t context_index) {
  device_service* svc = g_services[context_index].get();
  if (svc == nullptr) return ROCPROFILER_STATUS_SUCCESS;
  int expected = k_disabled;
  if (!svc->state.compare_exchange_strong(expected, k_locked))
    return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
  // Checked after taking the state: the exit stop closes first, then waits for the state.
  if (device_sampling_closed()) {
    last_start_error() = device_sampling_closed_reason();
    svc->state.store(k_disabled);
    return ROCPROFILER_STATUS_ERROR_FINALIZED;
  }
  const rocprofiler_context_id_t id{context_handle(context_index)};
  rocprofiler_status_t status = ROCPROFILER_STATUS_SUCCESS;
  for (const std::unique_ptr<counted_agent>& a : svc->agents) {
    a->chosen = 0;
    t_starting = svc;
    guarded_call("device counting callback",
                 [&] { a->callback(id, a->agent, set_config, a->user_data); });
    t_starting = nullptr;
  }
  for (const std::unique_ptr<counted_agent>& a : svc->agents) {
    const counter_config* config = a->chosen != 0 ? find_config(a->chosen) : nullptr;
    if (config == nullptr) continue;  // the tool chose nothing for this agent
    if (!claim_agent(a->agent, context_index)) {
      last_start_error() = "another active context samples the agent already";
      status = ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT;
      break;
    }
    a->sampler = std::make_unique<agent_sampler>(agent_sampler::mode::accumulate, svc->target);
    status = a->sampler->start(config, hardware_interval_ns(), last_start_error());
    if (status != ROCPROFILER_STATUS_SUCCESS) break;
  }
  if (status != ROCPROFILER_STATUS_SUCCESS) {
    stop_agents(*svc, context_index);
    svc->state.store(k_disabled);
    return status;
  }
  svc->state.store(k_enabled);
  return ROCPROFILER_STATUS_SUCCESS;
}

bool stop_device_counting(uint32_t context_index, uint64_t max_wait_ms) {
  device_service* svc = g_services[context_index].get();
  if (svc == nullptr) return true;
  const auto started = std::chrono::steady_clock::now();
  for (;;) {
    int expected = k_enabled;
    if (svc->state.compare_exchange_strong(expected, k_locked)) break;
    if (expected == k_disabled) return true;
    // A start or sample in progress on another thread.
    if (max_wait_ms != UINT64_MAX &&
        std::chrono::steady_clock::now() - started > std::chrono::milliseconds(max_wait_ms))
      return false;
    std::this_thread::yield();
  }
  stop_agents(*svc, context_index);
  svc->state.store(k_disabled);
  return true;
}

}  // namespace rocprof::core::counters

extern "C" {

using namespace rocprof::core;

ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_device_counting_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_agent_id_t agent_id, rocprofiler_device_counting_service_cb_t cb, void* user_data) {
  return guarded(__func__, [&] {
    if (!configuration_open()) return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    context* ctx = find_context(context_id);
    if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    buffer* b = nullptr;
    if (buffer_id.handle != 0 && (b = find_buffer(buffer_id)) == nullptr)
      return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    if (cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    if (load_counter_backends() == 0) return ROCPROFILER_STATUS_ERROR_BACKEND_NOT_LOADED;
    if (find_agent(agent_id) == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
    std::lock_guard<std::recursive_mutex> lock(config_mutex());
    std::unique_ptr<counters::device_service>& svc = counters::g_services[ctx->index];
    if (!svc) svc = std::make_unique<counters::device_service>();
    for (const auto& a : svc->agents)
      if (a->agent.handle == agent_id.handle)
        return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
    if (b != nullptr) svc->target = b;
    auto entry = std::make_unique<counters::counted_agent>();
    entry->agent = agent_id;
    entry->callback = cb;
    entry->user_data = user_data;
    svc->agents.push_back(std::move(entry));
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_sample_device_counting_service(
    rocprofiler_context_id_t context_id, rocprofiler_user_data_t user_data,
    rocprofiler_counter_flag_t flags, rocprofiler_counter_record_t* output_records,
    size_t* rec_count) {
  return guarded(__func__, [&] {
    const context* ctx = find_context(context_id);
    if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    if (finalizing() || counters::device_sampling_closed())
      return ROCPROFILER_STATUS_ERROR_FINALIZED;
    if (!ctx->active.load()) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED;
    counters::device_service* svc = counters::g_services[ctx->index].get();
    if (svc == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID;
    const bool async = (flags & ROCPROFILER_COUNTER_FLAG_ASYNC) != 0;
    if (output_records != nullptr) {
      if (rec_count == nullptr || async) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
      if (*rec_count == 0) return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    if (async) {
      if (svc->state.load() != counters::k_enabled) return ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR;
      counters::async_reader::get().post(ctx->index, user_data);
      return ROCPROFILER_STATUS_SUCCESS;
    }
    std::vector<rocprofiler_counter_record_t> records;
    const rocprofiler_status_t status = counters::read_service(*svc, user_data, records);
    if (status == ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR) return status;
    counters::write_to_buffer(svc->target, records);
    if (output_records != nullptr) {
      if (records.size() > *rec_count) {
        *rec_count = records.size();  // what the caller must make room for (as the SDK)
        return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
      }
      std::memcpy(output_records, records.data(), records.size() * sizeof(records[0]));
      *rec_count = records.size();
    }
    return status;
  });
}

}  // extern "C"
