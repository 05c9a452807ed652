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
#pragma once

#include <cupti.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "backend_sink.hpp"
#include "correlation_map.hpp"
#include "counters/counter_sets.hpp"
#include "counters/graph_counting.hpp"
#include "counters/range_profiler_api.hpp"
#include "counters/range_session.hpp"
#include "cupti_api.hpp"

namespace rocprof::cuda {

class activity_processor;

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

  // Driver callbacks that counting needs (launches, graph instantiation and launch).
  static bool handles(CUpti_CallbackId cbid);
  void enter(CUpti_CallbackId cbid, const CUpti_CallbackData& cb, const launch_ids& ids);
  void exit(CUpti_CallbackId cbid, const CUpti_CallbackData& cb);

  // The final flush: graph launches still waiting for records are given up.
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
  bool finish(range_session& session, std::vector<std::vector<double>>& ranges);
  void lost(const rocprof_counted_dispatch_t& d, const std::string& why);

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
  std::mutex sessions_mutex_;
  std::map<CUcontext, std::unique_ptr<range_session>> sessions_;
  std::map<uint64_t, uint64_t> last_set_of_agent_;  // for graphs instantiated before a launch
};

}  // namespace rocprof::cuda
