// Device-wide sampling of one agent through its backend's device sampler (backend_abi.h),
// shared by the device counting service (values accumulated between sample calls) and the
// SPM service (every hardware sample written to a buffer with its time span). Also the
// bookkeeping both need: which active context samples which agent, and why the last start
// failed.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "counters/counter_config.hpp"
#include "rocprofiler-sdk/backend/backend_abi.h"

namespace rocprof::core {
struct buffer;
}

namespace rocprof::core::counters {

/// One agent being sampled. Not copyable: the backend's sink points at it.
class agent_sampler {
 public:
  enum class mode { accumulate, timeline };

  agent_sampler(mode m, buffer* target) : mode_(m), target_(target) {}
  agent_sampler(const agent_sampler&) = delete;
  agent_sampler& operator=(const agent_sampler&) = delete;
  ~agent_sampler() { stop(); }

  /// Starts the backend's sampler for config's native counters. On failure `why` says why
  /// (the backend's words) and nothing runs.
  rocprofiler_status_t start(const counter_config* config, uint64_t interval_ns, std::string& why);
  /// Asks the backend for every completed hardware sample (accumulate mode: before a read).
  rocprofiler_status_t drain();
  /// Drains and stops; idempotent.
  void stop();
  bool running() const { return sampler_ != 0; }

  /// accumulate mode: the config's counter values over what accumulated since the previous
  /// take (or the start), then starts accumulating anew. false: could not evaluate.
  bool take(std::vector<rocprofiler_counter_record_t>& out);

  const counter_config* config() const { return config_; }
  /// Samples lost (index gaps) and samples received so far.
  uint64_t lost() const { return lost_; }
  uint64_t received() const { return received_; }

 private:
  static void on_sample(void* self, uint64_t index, rocprofiler_timestamp_t start,
                        rocprofiler_timestamp_t end, const double* values, uint64_t count);
  void write_timeline(uint64_t index, rocprofiler_timestamp_t start, rocprofiler_timestamp_t end,
                      const double* values, uint64_t count);

  const mode mode_;
  buffer* const target_;
  const counter_config* config_ = nullptr;
  rocprof_backend_t backend_{};
  rocprof_device_sample_sink_t sink_{};
  uint64_t sampler_ = 0;
  std::mutex mutex_;  // accumulation and counts (backend thread vs. take)
  std::vector<double> accumulated_;
  uint64_t last_index_ = 0, lost_ = 0, received_ = 0;
};

/// Marks `agent` as sampled by context `context_index`; false when another context has it.
bool claim_agent(rocprofiler_agent_id_t agent, uint32_t context_index);
void release_agent(rocprofiler_agent_id_t agent, uint32_t context_index);

/// Why the calling thread's last start of device sampling failed ("" after a success).
std::string& last_start_error();

/// rocprofiler_start_context / stop_context / finalisation hooks: both services of a context.
rocprofiler_status_t start_device_sampling(uint32_t context_index);
void stop_device_sampling(uint32_t context_index);
/// Finalisation, before buffers are flushed: every running sampler delivers what it holds.
void drain_all_device_sampling();

/// The exit stop. A backend's first start (and first drain and stop) of a device sampler
/// initialises libraries lazily (CUPTI's PM sampling, the NVIDIA profiler host library), and their
/// static destructors run at exit() before any exit handler registered earlier, the core's
/// finalisation included, while a tool's thread may still be starting, sampling or stopping
/// (AMD's device_counting_sync client restarts its context for every sample). So after those
/// first calls the core registers, once each, an exit handler that refuses later starts and
/// samples, waits for one in progress and stops every device sampler while those libraries
/// still work. (A registration made during the library constructors, ROCPROFILER_LIBRARY_CTOR,
/// runs only when the core library is unloaded, after the program's and the tools' static
/// destructors; the first drain, from a sample call, normally comes later, during main.)
enum class backend_call { first_start, first_drain, first_stop };
void arm_exit_stop(backend_call after);
/// true once the exit stop ran: starts fail with ROCPROFILER_STATUS_ERROR_FINALIZED.
bool device_sampling_closed();
const char* device_sampling_closed_reason();

}  // namespace rocprof::core::counters
