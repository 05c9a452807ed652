// One CUPTI session per process: subscribes once, enables only the callbacks and activity kinds
// the sink asks for, receives buffers, and flushes at context teardown and at exit.
// Order matters (cupti-notes §8): the timestamp callback is registered before any kind is
// enabled so every CUPTI timestamp is CLOCK_BOOTTIME like the core's own records.
#pragma once

#include <cupti.h>

#include <atomic>
#include <bitset>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "activity_processor.hpp"
#include "backend_sink.hpp"
#include "correlation_map.hpp"
#include "counters/launch_counting.hpp"
#include "cupti_api.hpp"
#include "pc_sampler.hpp"

namespace rocprof::cuda {

struct api_thread;  // the API callbacks' per-thread state (cupti_session.cpp)

enum class session_state : uint8_t { idle, running, conflict, failed };

// How the deferred tool start (defer_until_first_call) arranges CUPTI around the hook; the
// defaults, and why the others exist, in cupti_session_deferral.cpp.
struct deferral_plan {
  // The GPU activity kinds at start() (then narrowed to the tools' request), else in the hook.
  bool early_activities = true;
  // When the catch-all API callbacks of the wait for the first call are switched off: in the
  // hook call's ENTER callback, at its EXIT, or never (calls not asked for return at once).
  enum class off_at : uint8_t { enter, exit, never } domains_off = off_at::exit;
  // ROCPROF_CUDA_DEFERRED_ACTIVITY=hook, ROCPROF_CUDA_DEFERRED_DOMAINS_OFF=enter|exit|never.
  static deferral_plan from_env();
};

// The kernel records asked of CUPTI. Concurrent kernel records (CONCURRENT_KERNEL) are made by
// code CUPTI adds to every kernel, which the range profiler counts when it does not replay the
// kernel itself: on the H100 (CUDA 13.0, 2026-11-24) user and application replay counted 8 more
// instructions per launched warp and 20-40 per kernel with them (counter_app's fill: 52 428 840
// against ncu's 35 651 584), and exactly ncu's values with serialized records (KERNEL) or none.
// While counters are collected, kernel records are therefore serialized ones: counted kernels
// run one at a time anyway, and the others of a counting run are serialized too.
CUpti_ActivityKind kernel_record_kind(bool counting);

class cupti_session {
 public:
  // `api` and `sink` must outlive the session.
  cupti_session(cupti_api& api, backend_sink& sink);
  ~cupti_session();
  cupti_session(const cupti_session&) = delete;
  cupti_session& operator=(const cupti_session&) = delete;

  // Subscribes and enables what the sink asks for. Returns the resulting state; on conflict the
  // message naming the other subscriber has been printed once.
  session_state start();
  // The sink's requests changed while running: enables what is newly asked for, in place (the
  // core may call this from inside one of our own callbacks, so nothing is torn down here).
  // What is no longer asked for stays enabled; the sink filters it.
  void reconfigure();
  // The core's tools are not initialised yet and must not be inside cuInit, where CUDA calls
  // InitializeInjection (their initialisation may query devices, chips and PM sampling, which
  // broke the application's CUDA there). Until the first API call after it, every runtime and
  // driver call calls back; that call's entry runs `hook` (the tools' initialisation), after
  // which only what the tools asked for stays enabled. Set before start().
  void defer_until_first_call(std::function<void()> hook,
                              deferral_plan plan = deferral_plan::from_env());
  // Flushes every buffer (forced), reports drops; safe to call more than once.
  void flush();
  // Flush, disable, unsubscribe.
  void stop();
  // Where per-kernel counters get their APIs, asked once when a dispatch first wants counters
  // (left nullptr: none, counted dispatches get no values).
  void set_counter_api_provider(launch_counting::api_provider provider) {
    counting_.set_api_provider(std::move(provider));
  }
  // At the final flush: counted graph launches still waiting for records are given up.
  void finish_counting() { counting_.abandon_pending(); }

  // PC sampling through `api` (nullptr: unavailable) when the sink asks for it; set before
  // start() / reconfigure(). The sampler starts with the first enable and lives as long.
  void set_pc_sampling(pc_sampling_api* api) { pc_api_ = api; }
  rocprofiler_pc_sampling_loss_t pc_sampling_losses(uint64_t agent) const;
  // The SASS text of the PCs sampled so far (pc_sampler::sampled_instructions).
  void pc_sampling_instructions(const pc_sampler::instruction_fn& each);
  // Stops PC sampling for good (last samples delivered); at exit, before CUPTI's teardown.
  void finish_pc_sampling() {
    if (sampler_) sampler_->finish();
  }

  session_state state() const { return state_; }
  // Whether launches are attributed without callbacks (API activity records).
  bool attributes_by_api_records() const { return api_records_; }
  // Whether traced API calls are recorded from CUPTI's API activity records, without callbacks
  // (ROCPROF_CUDA_API_RECORDS=1, set by rocprofv3 by default for CUDA API tracing, unless
  // ROCPROF_CUDA_API_ARGS=1, rocprofv3 --cuda-api-args; read at construction, or set here
  // before start(); unset, the plugin alone keeps callbacks).
  // Only when nothing needs a callback on those calls: no API callback tracing, no counting, no
  // PC sampling, no launch-time external ids, no ROCPROF_CUDA_LAUNCH_CALLBACKS, and a libcupti
  // with per-API records and system thread ids. Records have no arguments and no external ids.
  void trace_api_from_records(bool on) { api_records_requested_ = on; }
  bool traces_api_from_records() const { return record_tracing_.any(); }
  activity_counts counts() const { return processor_.counts(); }
  record_correlation_counts correlation_counts() const { return processor_.correlation_counts(); }
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  const std::string& conflict_owner() const { return conflict_owner_; }
  // Why start() failed (state failed), for the caller's one warning.
  const std::string& failure() const { return failure_; }

  // When runtime calls are traced, the driver calls they make are not by default: their
  // callbacks do only what GPU work needs (correlation of launches, counting). Nested driver
  // calls that are not traced anyway take the same short path.
  // On with ROCPROF_CUDA_NESTED_DRIVER_API=1 (rocprofv3 --cuda-nested-driver-trace), read at
  // construction, or here (before start()). The application's direct driver calls are traced.
  void trace_nested_driver_calls(bool on) { nested_driver_traced_ = on; }
  // The CUPTI callback bodies, public so unit tests can feed synthetic callback data.
  void on_api(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData& cb);
  void on_resource(CUpti_CallbackId cbid, const CUpti_ResourceData& rd);
  void on_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t* buffer, size_t valid);

  // Names of callbacks that activity records need for their launching thread and id.
  static bool is_launch_like(const char* name);

  // The session the C callbacks below dispatch to (CUPTI callbacks carry no user pointer).
  static cupti_session* current();

 private:
  void enable_callbacks();
  // A driver callback inside a runtime call while nested driver calls are not traced.
  void on_nested_driver(api_thread& t, CUpti_CallbackId cbid, const CUpti_CallbackData& cb);
  // Whether launches are attributed from API activity records rather than launch callbacks
  // (decided at the first enable; once callbacks are needed they stay on).
  bool attribute_by_api_records(bool launch_hooks_needed);
  // Whether traced API calls come from API activity records (false for good once callbacks
  // were needed: the calls traced from records until then go back to callbacks).
  bool trace_api_by_records(bool callbacks_needed);
  // Whether CUPTI names OS threads (gettid) in API activity records, as the core does.
  bool system_thread_ids();
  // While the first-call hook is armed: whether this callback is processed as usual (it runs
  // the hook at the first entry after cuInit; cupti_session_deferral.cpp).
  bool pass_deferral(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                     const CUpti_CallbackData& cb);
  void start_deferral();
  void switch_catch_all_off();
  void narrow_early_activities();
  bool api_enabled(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) const;
  void enable_activities();
  std::vector<CUpti_ActivityKind> wanted_kinds() const;
  void enable_resource_callbacks();
  void set_flush_period_once();
  void register_agents_once();
  void start_pc_sampling_once();

  // What the PC sampler needs from the session: kernels, launches, agents, the sink.
  class pc_glue final : public pc_sample_sink {
   public:
    explicit pc_glue(cupti_session& s) : s_{s} {}
    void emit(const rocprofiler_pc_sampling_record_aggregated_v0_t& r) override;
    uint64_t kernel_of(const char* function) override;
    uint64_t launch_of(uint32_t cupti_correlation) override;
    uint64_t agent_of(CUcontext ctx) override;

   private:
    cupti_session& s_;
  };

  cupti_api& api_;
  backend_sink& sink_;
  correlation_map correlations_;
  activity_processor processor_;
  launch_counting counting_;
  CUpti_SubscriberHandle subscriber_ = nullptr;
  session_state state_ = session_state::idle;
  std::string conflict_owner_;
  std::string failure_;
  // Per cbid: traced for the core (callback and/or buffer record). Sized above both CUPTI
  // callback id ranges of CUDA 13 (runtime 523, driver 807), checked in the .cpp.
  static constexpr size_t max_cbid = 1024;
  std::bitset<max_cbid> traced_runtime_, traced_driver_;
  std::bitset<max_cbid> enabled_runtime_, enabled_driver_;  // API callbacks enabled by us
  // Per cbid: the call may launch GPU work whose records need its CUPTI correlation id (set
  // while GPU work or PC sampling is traced; only these calls write the correlation map).
  std::bitset<max_cbid> launching_runtime_, launching_driver_;
  bool nested_driver_traced_ = false;
  std::atomic<bool> skip_nested_driver_{false};  // runtime traced, nested driver calls not
  std::atomic<bool> counting_on_{false};  // a context asked for counting: launches are watched
  std::function<void()> first_call_hook_;
  std::atomic<bool> first_call_armed_{false};
  // Armed, or the catch-all callbacks still on: on_api asks pass_deferral.
  std::atomic<bool> deferring_{false};
  deferral_plan plan_;
  // While the catch-all callbacks wait for the EXIT of the call that ran the hook: its thread,
  // and how deep below that call the thread's current call is (-1: not waiting). Touched on
  // that thread only, once set.
  std::thread::id hook_thread_;
  std::atomic<int> below_hook_call_{-1};
  // Enabled at start() for the deferred start (also in enabled_kinds_), until narrowed.
  std::vector<CUpti_ActivityKind> early_kinds_;
  bool flush_period_set_ = false;
  bool trace_activity_ = false;
  bool trace_code_objects_ = false;
  bool launch_callbacks_ = false;  // launch callbacks were needed once: they stay
  bool api_records_ = false;       // launch-like calls give API activity records
  uint32_t api_record_cbids_ = 0;  // how many calls were asked for API records
  enum class thread_id_type : uint8_t { unknown, system, refused } thread_ids_{};
  bool api_records_requested_ = false;  // API tracing from API activity records asked for
  bool api_callbacks_ = false;          // API tracing needed callbacks once: they stay
  api_record_tracing record_tracing_;   // the calls traced from their API activity records
  std::atomic<uint64_t> dropped_{0};
  std::atomic<uint64_t> code_objects_{0};
  std::once_flag agents_once_;
  std::vector<CUpti_ActivityKind> enabled_kinds_;
  pc_sampling_api* pc_api_ = nullptr;
  pc_glue pc_glue_{*this};
  std::unique_ptr<pc_sampler> sampler_;  // set once, before the resource callbacks need it
};

}  // namespace rocprof::cuda
