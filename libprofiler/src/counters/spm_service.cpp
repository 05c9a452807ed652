#include "counters/spm_service.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backend_loader.hpp"
#include "buffer.hpp"
#include "context.hpp"
#include "counters/device_sampling.hpp"
#include "guarded.hpp"
#include "limits.hpp"
#include "registration.hpp"
#include "rocprofiler-sdk/spm.h"

namespace rocprof::core::counters {
namespace {

struct spm_entry {
  uint64_t config = 0;
  buffer* target = nullptr;
  uint64_t interval_ns = 0;
  std::unique_ptr<agent_sampler> sampler;
};

// Entries are added during configuration only; samplers change under the mutex.
std::mutex g_spm_mutex;
std::vector<spm_entry> g_spm[max_contexts];

void stop_locked(uint32_t context_index) {
  for (spm_entry& e : g_spm[context_index]) {
    if (!e.sampler) continue;
    e.sampler->stop();
    const counter_config* config = find_config(e.config);
    if (config != nullptr) release_agent(config->agent, context_index);
    if (e.sampler->lost() != 0) {
      const std::string message = "SPM lost " + std::to_string(e.sampler->lost()) +
                                  " hardware samples (interval too short for the buffer)";
      warn_once("spm-lost", message.c_str());
    }
    e.sampler.reset();
  }
}

}  // namespace

rocprofiler_status_t start_spm(uint32_t context_index) {
  std::lock_guard<std::mutex> lock(g_spm_mutex);
  if (device_sampling_closed()) {  // under the lock the exit stop takes too
    last_start_error() = device_sampling_closed_reason();
    return ROCPROFILER_STATUS_ERROR_FINALIZED;
  }
  for (spm_entry& e : g_spm[context_index]) {
    const counter_config* config = find_config(e.config);
    if (config == nullptr || config->destroyed.load()) {
      last_start_error() = "an SPM counter config was destroyed";
      stop_locked(context_index);
      return ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND;
    }
    if (!claim_agent(config->agent, context_index)) {
      last_start_error() = "another active context samples the agent already";
      stop_locked(context_index);
      return ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT;
    }
    e.sampler = std::make_unique<agent_sampler>(agent_sampler::mode::timeline, e.target);
    const rocprofiler_status_t status = e.sampler->start(config, e.interval_ns, last_start_error());
    if (status != ROCPROFILER_STATUS_SUCCESS) {
      stop_locked(context_index);
      return status;
    }
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

void stop_spm(uint32_t context_index) {
  std::lock_guard<std::mutex> lock(g_spm_mutex);
  stop_locked(context_index);
}

void drain_all_spm() {
  std::lock_guard<std::mutex> lock(g_spm_mutex);
  for (const std::vector<spm_entry>& entries : g_spm)
    for (const spm_entry& e : entries)
      if (e.sampler) e.sampler->drain();
}

}  // namespace rocprof::core::counters

extern "C" {

using namespace rocprof::core;

ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_spm_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_counter_config_id_t counter_config, uint64_t interval) {
  return guarded(__func__, [&] {
    if (!configuration_open()) return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    context* ctx = find_context(context_id);
    if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    buffer* b = find_buffer(buffer_id);
    if (b == nullptr) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    const counters::counter_config* config = counters::find_config(counter_config.handle);
    if (config == nullptr || config->destroyed.load())
      return ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND;
    if (interval == 0) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    std::lock_guard<std::mutex> lock(counters::g_spm_mutex);
    std::vector<counters::spm_entry>& entries = counters::g_spm[ctx->index];
    for (const counters::spm_entry& e : entries) {
      const counters::counter_config* other = counters::find_config(e.config);
      if (other != nullptr && other->agent.handle == config->agent.handle)
        return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
    }
    counters::spm_entry e;
    e.config = counter_config.handle;
    e.target = b;
    e.interval_ns = interval;
    entries.push_back(std::move(e));
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_device_sampling_last_error(const char** why) {
  return guarded(__func__, [&] {
    *why = counters::last_start_error().c_str();
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

}  // extern "C"
