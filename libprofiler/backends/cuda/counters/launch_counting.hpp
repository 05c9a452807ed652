// Per-kernel counters at the driver's launch callbacks (the CUDA side of the core's dispatch
// counting service). Called from cupti_session's API callback on the launching thread:
//  * cuLaunchKernel / cuLaunchKernelEx (and _ptsz) ENTER: the dispatch gets its dispatch id and
//    kernel id now (kernel records keep them), the core asks the tool for a config; a counted
//    one starts the context's range profiler (range_session) with the config's counter set;
//    EXIT: Stop, decode, evaluate, and the values go back to the core;
//  * cuGraphInstantiate* ENTER/EXIT: the profiler runs while the graph is instantiated (so its
//    exec can be profiled, probe Q1) and the graph's kernel nodes are noted;
//  * cuGraphLaunch ENTER: the tool is asked once per kernel node, in node order; the profiler
//    runs around the launch with the set of the first counted node; the ranges are matched to
//    nodes when the launch's kernel and copy records arrive (graph_counting).
// When no context counts, each entry costs one load (sink.counting_active()). Unselected
// dispatches never touch the profiler (it stays enabled, not started).
//
// Sets of one pass are collected as ROCPROF_CUDA_COUNTER_MODE says (counting_mode; sets of
// several passes always launch by launch with kernel replay). By default (auto) a one-pass set
// without elapsed-time metrics is batched, any other set goes launch by launch. Batched: the
// profiler runs with user replay (one pass, nothing saved or restored) and stays started
// across the context's counted launches; AutoRange gives each launch its range, and the
// ranges are decoded together (launch_batching.cpp) when the batch is due: half the counter
// data image used, another set or mode wanted, before any work that could add a range of its
// own or must not run under the profiler (an unselected launch, copies and memsets, graph
// launches and instantiation, stream capture, cooperative launches), at cuCtxSynchronize, at
// context destruction and at the end. Values then reach the core in launch order, a batch
// after its launches.
#pragma once

#include <cupti.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backend_sink.hpp"
#include "correlation_map.hpp"
#include "counters/counter_sets.hpp"
#include "counters/graph_counting.hpp"
#include "counters/range_profiler_api.hpp"
#include "counters/range_session.hpp"
#include "counters/replayed_launch_times.hpp"
#include "cupti_api.hpp"

namespace rocprof::cuda {

class activity_processor;

// Prints "rocprofv3 [cuda]: counters: <message>" once per key.
void warn_counting_once(const std::string& key, const std::string& message);

// How sets of one pass are collected (ROCPROF_CUDA_COUNTER_MODE=auto|kernel|kernel-batched|user|
// batched|app|app-batched). Measured on the H100 (2026-11-24, counter_app's 166 launches):
// kernel 4.18 s, batched 1.58 s, the program alone 0.46 s; every mode gave kernel replay's (and
// ncu's) instruction and warp counts once kernel records stopped being concurrent ones
// (kernel_record_kind in cupti_session.hpp). Elapsed-time metrics differ: a range of user
// replay spans more than the kernel (fill's sm__cycles_elapsed.max 1.10-1.13x ncu's on the
// short kernels), kernel replay's is the kernel alone (1.00x).
enum class counting_mode : uint8_t {
  automatic,       // batched for one-pass sets without elapsed-time metrics, else kernel
  kernel,          // Start, Stop and DecodeData around each launch, kernel replay
  kernel_batched,  // kernel replay, started across launches, decoded per batch of launches
  user,            // Start/Stop per launch with user replay: no memory saved or restored
  batched,         // user replay, started across launches, decoded per batch of launches
  app,             // as user, with CUPTI_ApplicationReplay (one pass: nothing is replayed)
  app_batched,     // as batched, with CUPTI_ApplicationReplay
};
// ROCPROF_CUDA_COUNTER_MODE; automatic when unset (an unknown value is reported and ignored).
counting_mode counting_mode_from_env();
// Whether a value of these metrics depends on the range's length (elapsed cycles, durations,
// rates per second, percentages of the elapsed peak): those need the range to be the kernel
// alone, which kernel replay gives.
bool measures_elapsed_time(const std::vector<std::string>& metrics);

// The ids the session gave the calling API call.
struct launch_ids {
  uint64_t correlation_id = 0;  // the core's id of the outermost call (the records')
  uint64_t external_id = 0;
  int64_t tid = 0;
  uint32_t cupti_id = 0;        // this driver call's CUPTI correlation id
  uint32_t outer_cupti_id = 0;  // the outermost call's (what activity records carry)
};

class launch_counting {
 public:
  launch_counting(cupti_api& api, backend_sink& sink, activity_processor& processor,
                  correlation_map& correlations, counter_sets& sets);

  // Gives the target and host APIs, asked once, when a dispatch first wants counters;
  // nullptr: counters cannot be collected (reported once).
  using api_provider = std::function<void(range_profiler_api*&, profiler_host_api*&)>;
  void set_api_provider(api_provider provider);
  graph_counting& graphs() { return graphs_; }
  // The spans of launches counted with kernel replay, whose kernel records carry no times.
  replayed_launch_times& replayed() { return replayed_; }

  // Driver callbacks that counting needs (launches, graph instantiation and launch, and the
  // calls before which a batch is collected).
  bool handles(CUpti_CallbackId cbid);
  counting_mode mode() const { return mode_; }
  void enter(CUpti_CallbackId cbid, const CUpti_CallbackData& cb, const launch_ids& ids);
  void exit(CUpti_CallbackId cbid, const CUpti_CallbackData& cb);

  // A context is being destroyed: its batch is collected, its profiler forgotten.
  void context_destroying(CUcontext ctx);
  // The final flush: running batches are collected, graph launches still waiting for records
  // are given up (and the phase timing is printed when asked for).
  void abandon_pending();

 private:
  struct launch_shape {
    CUfunction function = nullptr;
    uint32_t grid[3] = {0, 0, 0};
    uint32_t block[3] = {0, 0, 0};
    uint32_t shared = 0;
    CUstream stream = nullptr;
  };
  bool shape_of(CUpti_CallbackId cbid, const CUpti_CallbackData& cb, launch_shape& shape);
  rocprofiler_kernel_dispatch_info_t dispatch_info(const CUpti_CallbackData& cb,
                                                   const launch_shape& shape,
                                                   const std::string& name, uint64_t dispatch_id);
  // Asks the provider once; true when both APIs are there.
  bool ensure_apis();
  range_session* session_for(const CUpti_CallbackData& cb, uint64_t agent_id);
  void kernel_enter(CUpti_CallbackId cbid, const CUpti_CallbackData& cb, const launch_ids& ids);
  void graph_launch_enter(const CUpti_CallbackData& cb, const launch_ids& ids);
  void instantiate_enter(const CUpti_CallbackData& cb);
  void instantiate_exit(const CUpti_CallbackData& cb);
  bool finish(range_session& session, std::vector<std::vector<double>>& ranges,
              std::vector<uint64_t>* kernel_durations = nullptr);
  void lost(const rocprof_counted_dispatch_t& d, const std::string& why);

  // launch_batching.cpp
  bool is_flush_point(CUpti_CallbackId cbid);
  CUpti_ProfilerReplayMode replay_for(range_session& session, const counter_set& set,
                                      bool& batched);
  // Starts the profiler for one launch (or graph instantiation) with the set's replay mode;
  // user replay refused: kernel replay, now and later.
  bool begin_one_launch(range_session& session, const counter_set& set, std::string& why);
  // Starts the profiler around a graph's instantiation or launch: always with kernel replay.
  // On the H100 (session 8) Stop failed with CUPTI_ERROR_UNKNOWN under user replay after an
  // instantiation, and after the first launch of a graph instantiated under kernel replay.
  bool begin_graph_run(range_session& session, const counter_set& set, std::string& why);
  range_session* existing_session(CUcontext ctx);
  // Stops the session's running batch (its mutex held) and finishes its dispatches.
  void flush_locked(range_session& session, std::vector<finished_dispatch>& ready);
  // Collects the running batch of `ctx`, if any (`make_current`: outside its launches).
  void flush_context(CUcontext ctx, bool make_current = false);
  void deliver(std::vector<finished_dispatch>& ready);
  // A counted launch joins the running batch: true, the session mutex held until its EXIT
  // (`ready`: dispatches of an earlier batch, to deliver then). False: user replay was refused
  // (reported; the mutex still held): the launch goes launch by launch with kernel replay.
  // `replay`: user replay (batched) or kernel replay (kernel-batched).
  bool batched_enter(range_session& session, const counter_set& set,
                     CUpti_ProfilerReplayMode replay, const rocprof_counted_dispatch_t& d,
                     uint64_t now, std::vector<finished_dispatch>& ready);
  void batched_exit(range_session& session, const CUpti_CallbackData& cb,
                    std::vector<finished_dispatch> ready);
  // User replay failed in `session` (`why`): reported once, kernel replay from now on.
  void user_replay_refused(range_session& session, const std::string& why);

  cupti_api& api_;
  backend_sink& sink_;
  activity_processor& processor_;
  correlation_map& correlations_;
  counter_sets& sets_;
  api_provider provider_;
  bool provided_ = false;
  range_profiler_api* target_ = nullptr;
  profiler_host_api* host_ = nullptr;
  graph_counting graphs_;
  replayed_launch_times replayed_;
  std::mutex sessions_mutex_;
  std::map<CUcontext, std::unique_ptr<range_session>> sessions_;
  std::map<uint64_t, uint64_t> last_set_of_agent_;  // for graphs instantiated before a launch
  const counting_mode mode_;
  std::atomic<int> batches_running_{0};  // sessions started in batched mode (0: no flush due)
  std::once_flag flush_points_once_;
  std::vector<bool> flush_points_;  // by driver cbid
};

}  // namespace rocprof::cuda
