// Batched collection of one-pass counter sets (launch_counting.hpp says when a batch is
// collected; dispatch_batch.hpp how its ranges are matched with its dispatches).
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "callback_guard.hpp"
#include "counters/counter_timing.hpp"
#include "counters/launch_counting.hpp"

namespace rocprof::cuda {
namespace {

// Ranges per batch: half the counter data image, so that a batch always fits the image (it is
// initialised again before a batch that would not) and no range of a pass is dropped.
constexpr size_t k_batch_ranges = range_session::max_ranges / 2;

// Driver calls before which a running batch is collected: work that may run as a kernel of its
// own (a device-to-device copy, a memset, a cooperative launch we do not count) would take a
// range; a capture or a graph must not start under the profiler (launch_counting.cpp); the
// context's end takes its profiler; a device-wide synchronisation is where a program expects
// its results, so the values are delivered there too.
const char* const k_flush_prefixes[] = {
    "cuMemcpy",     "cuMemset",         "cuStreamBeginCapture",      "cuLaunchCooperativeKernel",
    "cuCtxDestroy", "cuCtxSynchronize", "cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxReset"};

}  // namespace

counting_mode counting_mode_from_env() {
  const char* value = std::getenv("ROCPROF_CUDA_COUNTER_MODE");
  if (value == nullptr || *value == '\0' || std::strcmp(value, "auto") == 0)
    return counting_mode::automatic;
  if (std::strcmp(value, "kernel") == 0) return counting_mode::kernel;
  if (std::strcmp(value, "kernel-batched") == 0) return counting_mode::kernel_batched;
  if (std::strcmp(value, "user") == 0) return counting_mode::user;
  if (std::strcmp(value, "batched") == 0) return counting_mode::batched;
  if (std::strcmp(value, "app") == 0) return counting_mode::app;
  if (std::strcmp(value, "app-batched") == 0) return counting_mode::app_batched;
  std::fprintf(stderr,
               "rocprofv3 [cuda]: counters: ROCPROF_CUDA_COUNTER_MODE=%s is not one of auto, "
               "kernel, kernel-batched, user, batched, app, app-batched; auto is used\n",
               value);
  return counting_mode::automatic;
}

bool measures_elapsed_time(const std::vector<std::string>& metrics) {
  for (const std::string& m : metrics)
    if (m.find("elapsed") != std::string::npos || m.find("time_duration") != std::string::npos ||
        m.find("per_second") != std::string::npos)
      return true;
  return false;
}

bool launch_counting::is_flush_point(CUpti_CallbackId cbid) {
  std::call_once(flush_points_once_, [this] {
    flush_points_.assign(CUPTI_DRIVER_TRACE_CBID_SIZE, false);
    for (uint32_t id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++id) {
      const char* name = nullptr;
      if (api_.callback_name(CUPTI_CB_DOMAIN_DRIVER_API, id, &name) != CUPTI_SUCCESS ||
          name == nullptr)
        continue;
      for (const char* prefix : k_flush_prefixes)
        if (std::strncmp(name, prefix, std::strlen(prefix)) == 0) flush_points_[id] = true;
    }
  });
  return cbid < flush_points_.size() && flush_points_[cbid];
}

CUpti_ProfilerReplayMode launch_counting::replay_for(range_session& session, const counter_set& set,
                                                     bool& batched) {
  batched = false;
  if (mode_ == counting_mode::kernel) return CUPTI_KernelReplay;
  std::string why;  // a failure shows again, and is reported, when the set is configured
  if (session.passes(set, why) != 1) return CUPTI_KernelReplay;
  if (mode_ == counting_mode::automatic) {
    if (measures_elapsed_time(set.metrics) || session.user_replay_failed())
      return CUPTI_KernelReplay;
    batched = true;
    return CUPTI_UserReplay;
  }
  batched = mode_ == counting_mode::kernel_batched;
  if (batched) return CUPTI_KernelReplay;
  if (session.user_replay_failed()) return CUPTI_KernelReplay;  // launch by launch
  batched = mode_ == counting_mode::batched || mode_ == counting_mode::app_batched;
  const bool app = mode_ == counting_mode::app || mode_ == counting_mode::app_batched;
  return app ? CUPTI_ApplicationReplay : CUPTI_UserReplay;
}

bool launch_counting::begin_one_launch(range_session& session, const counter_set& set,
                                       std::string& why) {
  bool batched = false;
  const CUpti_ProfilerReplayMode replay = replay_for(session, set, batched);
  if (session.begin(set, replay, range_session::max_ranges / 4, why)) return true;
  if (!replays_itself(replay)) return false;
  user_replay_refused(session, why);
  why.clear();
  return session.begin(set, CUPTI_KernelReplay, range_session::max_ranges / 4, why);
}

bool launch_counting::begin_graph_run(range_session& session, const counter_set& set,
                                      std::string& why) {
  return session.begin(set, CUPTI_KernelReplay, range_session::max_ranges / 4, why);
}

range_session* launch_counting::existing_session(CUcontext ctx) {
  std::lock_guard<std::mutex> lock(sessions_mutex_);
  const auto it = sessions_.find(ctx);
  return it != sessions_.end() ? it->second.get() : nullptr;
}

void launch_counting::flush_locked(range_session& session, std::vector<finished_dispatch>& ready) {
  if (!session.started()) return;
  const counter_timer timer{counter_phase::flush};
  std::vector<std::vector<double>> ranges;
  std::string why;
  const bool ok = session.end(ranges, why);
  batches_running_.fetch_sub(1, std::memory_order_relaxed);
  if (!ok && replays_itself(session.active_replay())) user_replay_refused(session, why);
  std::string mismatch;
  session.batch().resolve(ok, std::move(ranges), ready, mismatch);
  if (!why.empty()) warn_counting_once(why, why + "; those dispatches get no counter values");
  if (!mismatch.empty())
    warn_counting_once("batch-mismatch", mismatch + "; those dispatches get no counter values");
}

void launch_counting::flush_context(CUcontext ctx, bool make_current) {
  if (batches_running_.load(std::memory_order_relaxed) == 0 || ctx == nullptr) return;
  range_session* session = existing_session(ctx);
  if (session == nullptr) return;
  std::vector<finished_dispatch> ready;
  {
    std::lock_guard<std::mutex> lock(session->mutex());
    if (!session->started()) return;
    if (make_current && !target_->push_context(ctx)) {
      // The context is gone: its profiler cannot be asked; its dispatches get no values.
      std::string unused;
      session->batch().resolve(false, {}, ready, unused);
    } else {
      flush_locked(*session, ready);
      if (make_current) target_->pop_context();
    }
  }
  deliver(ready);
}

void launch_counting::deliver(std::vector<finished_dispatch>& ready) {
  for (const finished_dispatch& f : ready)
    sink_.counting_end(f.counted, f.values.empty() ? nullptr : f.values.data(), f.values.size(),
                       f.start_ns, f.end_ns);
  ready.clear();
}

bool launch_counting::batched_enter(range_session& session, const counter_set& set,
                                    CUpti_ProfilerReplayMode replay,
                                    const rocprof_counted_dispatch_t& d, uint64_t now,
                                    std::vector<finished_dispatch>& ready) {
  // A batch of another set (or mode) ends before this one starts.
  if (session.started() &&
      (session.active_set() != set.handle || session.active_replay() != replay))
    flush_locked(session, ready);
  const bool was_started = session.started();
  std::string why;
  if (!session.begin(set, replay, k_batch_ranges, why)) {
    if (!replays_itself(replay)) return false;  // launch by launch, kernel replay
    user_replay_refused(session, why);          // this launch and the next: kernel replay
    return false;
  }
  if (!was_started) batches_running_.fetch_add(1, std::memory_order_relaxed);
  session.batch().push(d, now);
  return true;
}

void launch_counting::user_replay_refused(range_session& session, const std::string& why) {
  if (session.user_replay_failed()) return;
  session.set_user_replay_failed();
  warn_counting_once("user-replay-refused",
                     "user replay failed (" + why +
                         "): sets of one pass are collected with kernel replay in this context");
}

void launch_counting::batched_exit(range_session& session, const CUpti_CallbackData& cb,
                                   std::vector<finished_dispatch> ready) {
  const auto* result = static_cast<const CUresult*>(cb.functionReturnValue);
  const bool launched = result == nullptr || *result == CUDA_SUCCESS;
  session.batch().returned(launched, sink_.timestamp(), ready);
  if (session.batch().size() >= k_batch_ranges) flush_locked(session, ready);
  session.mutex().unlock();
  deliver(ready);
}

void launch_counting::context_destroying(CUcontext ctx) {
  if (!sink_.counting_requested()) return;
  backend_call_scope own_calls;
  flush_context(ctx, true);
  std::lock_guard<std::mutex> lock(sessions_mutex_);
  sessions_.erase(ctx);
}

void launch_counting::abandon_pending() {
  std::vector<CUcontext> contexts;
  {
    std::lock_guard<std::mutex> lock(sessions_mutex_);
    for (const auto& [ctx, session] : sessions_)
      contexts.push_back(ctx);
  }
  {
    backend_call_scope own_calls;
    for (CUcontext ctx : contexts)
      flush_context(ctx, true);
  }
  std::vector<finished_dispatch> ready;
  graphs_.abandon(ready);
  deliver(ready);
  report_counter_timing();
}

}  // namespace rocprof::cuda
