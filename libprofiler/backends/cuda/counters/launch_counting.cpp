#include "counters/launch_counting.hpp"

#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include "activity_processor.hpp"
#include "callback_guard.hpp"
#include "counters/counter_timing.hpp"

namespace rocprof::cuda {
namespace {

// The profiler work one thread has in flight between a callback's ENTER and its EXIT.
struct pending_launch {
  enum class kind : uint8_t { none, kernel, graph, instantiate, batched } what = kind::none;
  range_session* session = nullptr;  // its mutex is held until EXIT
  rocprof_counted_dispatch_t counted{};
  uint64_t start_ns = 0;  // the profiler running, the launch about to proceed
  uint32_t graph_cupti_id = 0;
  std::vector<finished_dispatch> ready;  // an earlier batch's, delivered after the mutex
  uint64_t timing_start = 0;             // counter_clock_ns() at ENTER (phase timing)
};
thread_local pending_launch t_pending;

// Every cuGraphInstantiate* params struct starts with these two.
struct instantiate_params {
  CUgraphExec* exec;
  CUgraph graph;
};

bool is_kernel_launch(CUpti_CallbackId cbid) {
  return cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz;
}
bool is_graph_launch(CUpti_CallbackId cbid) {
  return cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
}
bool is_instantiate(CUpti_CallbackId cbid) {
  return cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2 ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz;
}

}  // namespace

void warn_counting_once(const std::string& key, const std::string& message) {
  static std::mutex m;
  static auto* seen = new std::set<std::string>();
  std::lock_guard<std::mutex> lock(m);
  if (seen->insert(key).second)
    std::fprintf(stderr, "rocprofv3 [cuda]: counters: %s\n", message.c_str());
}

launch_counting::launch_counting(cupti_api& api, backend_sink& sink, activity_processor& processor,
                                 correlation_map& correlations, counter_sets& sets)
    : api_{api},
      sink_{sink},
      processor_{processor},
      correlations_{correlations},
      sets_{sets},
      mode_{counting_mode_from_env()} {}

void launch_counting::set_api_provider(api_provider provider) {
  std::lock_guard<std::mutex> lock(sessions_mutex_);
  provider_ = std::move(provider);
  provided_ = false;
}

bool launch_counting::handles(CUpti_CallbackId cbid) {
  return is_kernel_launch(cbid) || is_graph_launch(cbid) || is_instantiate(cbid) ||
         is_flush_point(cbid);
}

bool launch_counting::shape_of(CUpti_CallbackId cbid, const CUpti_CallbackData& cb,
                               launch_shape& s) {
  if (cb.functionParams == nullptr) return false;
  if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ||
      cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz) {
    const auto* p = static_cast<const cuLaunchKernel_params*>(cb.functionParams);
    s.function = p->f;
    s.grid[0] = p->gridDimX, s.grid[1] = p->gridDimY, s.grid[2] = p->gridDimZ;
    s.block[0] = p->blockDimX, s.block[1] = p->blockDimY, s.block[2] = p->blockDimZ;
    s.shared = p->sharedMemBytes;
    s.stream = p->hStream;
    return true;
  }
  const auto* p = static_cast<const cuLaunchKernelEx_params*>(cb.functionParams);
  if (p->config == nullptr) return false;
  s.function = p->f;
  s.grid[0] = p->config->gridDimX, s.grid[1] = p->config->gridDimY, s.grid[2] = p->config->gridDimZ;
  s.block[0] = p->config->blockDimX, s.block[1] = p->config->blockDimY;
  s.block[2] = p->config->blockDimZ;
  s.shared = p->config->sharedMemBytes;
  s.stream = p->config->hStream;
  return true;
}

rocprofiler_kernel_dispatch_info_t launch_counting::dispatch_info(const CUpti_CallbackData& cb,
                                                                  const launch_shape& s,
                                                                  const std::string& name,
                                                                  uint64_t dispatch_id) {
  rocprofiler_kernel_dispatch_info_t info{};
  info.size = sizeof(info);
  uint32_t device = 0;
  if (cb.context != nullptr && api_.device_id(cb.context, &device) == CUPTI_SUCCESS)
    info.agent_id.handle = processor_.agent_of_device(device);
  info.queue_id.handle = cb.contextUid;  // kernel records carry the context id as queue
  // The first counted launch of a kernel reports its symbol (the tool's kernel filter needs the
  // name before it decides); the driver gives the resources its records would carry.
  info.kernel_id = processor_.kernel_id_at_launch(name, [&](function_resources& r) {
    return s.function != nullptr && ensure_apis() && target_->resources_of(s.function, r);
  });
  info.dispatch_id = dispatch_id;
  info.group_segment_size = s.shared;  // dynamic shared memory (the static part is in the symbol)
  info.workgroup_size = rocprofiler_dim3_t{s.block[0], s.block[1], s.block[2]};
  info.grid_size =
      rocprofiler_dim3_t{s.grid[0] * s.block[0], s.grid[1] * s.block[1], s.grid[2] * s.block[2]};
  return info;
}

bool launch_counting::ensure_apis() {
  std::lock_guard<std::mutex> lock(sessions_mutex_);
  if (!provided_ && provider_) provider_(target_, host_);
  provided_ = true;
  return target_ != nullptr && host_ != nullptr;
}

range_session* launch_counting::session_for(const CUpti_CallbackData& cb, uint64_t agent_id) {
  if (!ensure_apis() || cb.context == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(sessions_mutex_);
  std::unique_ptr<range_session>& s = sessions_[cb.context];
  if (s == nullptr) {
    uint32_t device = 0;
    api_.device_id(cb.context, &device);
    s = std::make_unique<range_session>(*target_, *host_, cb.context, device,
                                        sets_.chip_of(agent_id));
  }
  return s.get();
}

void launch_counting::lost(const rocprof_counted_dispatch_t& d, const std::string& why) {
  if (!why.empty()) warn_counting_once(why, why + "; those dispatches get no counter values");
  sink_.counting_end(d, nullptr, 0, 0, 0);
}

// The kernels of CUDA graphs are counted unless ROCPROF_CUDA_COUNT_GRAPHS=0. On the H100 the
// range profiler running while a graph is instantiated adds kernels of its own to every launch
// of it (3 "WaitNs" per launch of counter_app's graph) and, with a group of several passes,
// replays the graph's kernels; their records carry the launch's CUPTI id and are left out
// (graph_counting::not_a_node). Until session 8 they were not, and no graph node got values
// (the launch waited for a copy record that never came): counting was off by default then.
// Read at each graph call (not cached: graph launches and instantiations only, while counting).
static bool graph_counting_enabled() {
  const char* value = std::getenv("ROCPROF_CUDA_COUNT_GRAPHS");
  return value == nullptr || std::strcmp(value, "0") != 0;
}

void launch_counting::enter(CUpti_CallbackId cbid, const CUpti_CallbackData& cb,
                            const launch_ids& ids) {
  if (!sink_.counting_active()) return;
  backend_call_scope own_calls;
  if (is_kernel_launch(cbid)) return kernel_enter(cbid, cb, ids);
  // Anything else counting sees (a graph, a copy, a capture, ...) ends the running batch.
  flush_context(cb.context);
  if (is_flush_point(cbid)) return;
  if (!graph_counting_enabled()) {
    if (is_graph_launch(cbid))
      warn_counting_once("graphs-not-counted",
                         "kernels run by CUDA graphs are traced but not counted "
                         "(ROCPROF_CUDA_COUNT_GRAPHS=0)");
  } else if (is_graph_launch(cbid)) {
    graph_launch_enter(cb, ids);
  } else if (is_instantiate(cbid)) {
    instantiate_enter(cb);
  }
}

void launch_counting::kernel_enter(CUpti_CallbackId cbid, const CUpti_CallbackData& cb,
                                   const launch_ids& ids) {
  launch_shape shape;
  if (!shape_of(cbid, cb, shape)) return;
  // A launch into a stream being captured only records a graph node: it is counted when the
  // graph runs (graph_launch_enter), and the range profiler must not start inside the capture.
  const bool apis = ensure_apis();  // takes the sessions lock: once per launch
  if (apis && target_->stream_capturing(shape.stream)) return flush_context(cb.context);
  std::string name = cb.symbolName != nullptr ? cb.symbolName : "";
  if (name.empty() && apis) name = target_->function_name(shape.function);
  const uint64_t dispatch_id = processor_.next_dispatch_id();
  // The kernel record keeps this dispatch id: it carries the outermost call's CUPTI id (the
  // runtime call's, for a cudaLaunchKernel); this driver call's id is noted too.
  const rocprofiler_kernel_dispatch_info_t info = dispatch_info(cb, shape, name, dispatch_id);
  // The kernel id tells the launched kernel's record from the range profiler's own kernels,
  // which carry the same CUPTI id (activity_processor::launched_elsewhere).
  const correlation_entry entry{ids.correlation_id, ids.external_id, ids.tid, dispatch_id,
                                info.kernel_id};
  correlations_.put(ids.cupti_id, entry);
  if (ids.outer_cupti_id != ids.cupti_id) correlations_.put(ids.outer_cupti_id, entry);
  rocprof_counted_dispatch_t d{};
  const uint64_t set = sink_.counting_begin(d, info, ids.correlation_id, ids.external_id);
  // An unselected launch runs untouched: not under a running batch either.
  if (d.config == 0) return flush_context(cb.context);
  const uint64_t now = sink_.timestamp();
  if (set == 0) {  // constants only: nothing to collect
    flush_context(cb.context);
    sink_.counting_end(d, nullptr, 0, now, now);
    return;
  }
  count_timed_dispatch();
  const uint64_t timing_start = counter_clock_ns();
  counter_set cs;
  range_session* session = sets_.find(set, cs) ? session_for(cb, info.agent_id.handle) : nullptr;
  if (session == nullptr) return lost(d, "the range profiler is not available");
  {
    std::lock_guard<std::mutex> lock(sessions_mutex_);
    last_set_of_agent_[info.agent_id.handle] = set;
  }
  session->mutex().lock();
  bool batched = false;
  const CUpti_ProfilerReplayMode replay = replay_for(*session, cs, batched);
  std::vector<finished_dispatch> ready;
  if (batched && batched_enter(*session, cs, replay, d, now, ready)) {
    t_pending = pending_launch{
        pending_launch::kind::batched, session, d, now, 0, std::move(ready), timing_start};
    return;
  }
  flush_locked(*session, ready);  // a batch of an earlier one-pass set
  std::string why;
  if (!begin_one_launch(*session, cs, why)) {
    session->mutex().unlock();
    deliver(ready);
    return lost(d, why);
  }
  // The span the kernel's records may take (replayed_launch_times) starts once the profiler
  // is running: its set-up is not the kernel's time.
  t_pending = pending_launch{pending_launch::kind::kernel,
                             session,
                             d,
                             sink_.timestamp(),
                             0,
                             std::move(ready),
                             timing_start};
}

void launch_counting::graph_launch_enter(const CUpti_CallbackData& cb, const launch_ids& ids) {
  if (cb.functionParams == nullptr) return;
  const auto* p = static_cast<const cuGraphLaunch_params*>(cb.functionParams);
  graph_shape graph;
  if (!graphs_.exec_nodes(reinterpret_cast<uint64_t>(p->hGraph), graph)) return;
  std::vector<graph_node_dispatch> dispatches;
  uint64_t set = 0;
  int range_index = 0;
  for (const graph_kernel_node& n : graph.nodes) {
    const int range = range_index++;
    if (n.copy) continue;  // takes a range, is no dispatch
    launch_shape shape;
    shape.function = n.function;
    std::copy(n.grid, n.grid + 3, shape.grid);
    std::copy(n.block, n.block + 3, shape.block);
    shape.shared = n.dynamic_shared_memory;
    graph_node_dispatch g;
    g.range_index = graph.one_order ? range : -1;
    g.dispatch_id = processor_.next_dispatch_id();
    const rocprofiler_kernel_dispatch_info_t info = dispatch_info(cb, shape, n.name, g.dispatch_id);
    g.kernel_id = n.name.empty() ? 0 : info.kernel_id;  // 0: its records cannot be told
    for (int i = 0; i < 3; ++i) {
      g.grid_threads[i] = n.grid[i] * n.block[i];
      g.block[i] = n.block[i];
    }
    const uint64_t node_set =
        sink_.counting_begin(g.counted, info, ids.correlation_id, ids.external_id);
    if (g.counted.config != 0 && node_set == 0) {
      sink_.counting_end(g.counted, nullptr, 0, 0, 0);  // constants only
    } else if (g.counted.config != 0) {
      if (set == 0) set = node_set;
      g.collected = node_set == set;
      if (!g.collected)
        lost(g.counted,
             "a graph launch is profiled with one counter config (its first counted "
             "node's); nodes choosing another one are skipped");
    }
    dispatches.push_back(g);
  }
  const uint32_t records_id = ids.outer_cupti_id;
  graphs_.launched(records_id, dispatches, ids.cupti_id,
                   graph.one_order ? static_cast<size_t>(range_index) : 0);
  std::vector<finished_dispatch> ready;
  counter_set cs;
  range_session* session = set != 0 && sets_.find(set, cs) ? session_for(cb, cs.agent_id) : nullptr;
  std::string why = set != 0 ? "the range profiler is not available" : "";
  if (session != nullptr) {
    session->mutex().lock();
    if (begin_graph_run(*session, cs, why)) {
      // As for single launches: the nodes' replayed spans start once the profiler is running.
      t_pending = pending_launch{
          pending_launch::kind::graph, session, {}, sink_.timestamp(), records_id, {}, 0};
      return;
    }
    session->mutex().unlock();
  }
  if (!why.empty()) warn_counting_once(why, why + "; graph dispatches get no counter values");
  graphs_.collected(records_id, {}, ready);  // nothing collected: records only take their ids
  for (const finished_dispatch& f : ready)
    sink_.counting_end(f.counted, nullptr, 0, 0, 0);
}

void launch_counting::instantiate_enter(const CUpti_CallbackData& cb) {
  // A graph exec is profilable only if the profiler ran while it was instantiated. It needs a
  // configured set: the agent's latest, else the first created for it.
  uint32_t device = 0;
  if (cb.context == nullptr || api_.device_id(cb.context, &device) != CUPTI_SUCCESS) return;
  const uint64_t agent = processor_.agent_of_device(device);
  uint64_t set = 0;
  {
    std::lock_guard<std::mutex> lock(sessions_mutex_);
    const auto it = last_set_of_agent_.find(agent);
    if (it != last_set_of_agent_.end()) set = it->second;
  }
  counter_set cs;
  for (uint64_t h = 1; set == 0 && sets_.find(h, cs); ++h)
    if (cs.agent_id == agent) set = h;
  if (set == 0 || !sets_.find(set, cs)) {
    warn_counting_once(
        "graph-before-config",
        "a CUDA graph was instantiated before any counter config existed for its GPU: "
        "its kernels cannot be counted");
    t_pending = pending_launch{pending_launch::kind::instantiate, nullptr, {}, 0, 0, {}, 0};
    return;
  }
  range_session* session = session_for(cb, agent);
  if (session == nullptr) return;
  session->mutex().lock();
  std::string why;
  if (!begin_graph_run(*session, cs, why)) {
    session->mutex().unlock();
    warn_counting_once(why, why + " (while a CUDA graph was instantiated)");
    session = nullptr;
  }
  t_pending = pending_launch{pending_launch::kind::instantiate, session, {}, 0, 0, {}, 0};
}

bool launch_counting::finish(range_session& session, std::vector<std::vector<double>>& ranges,
                             std::vector<uint64_t>* kernel_durations) {
  std::string why;
  const bool ok = session.end(ranges, why, kernel_durations);
  if (!ok && replays_itself(session.active_replay())) user_replay_refused(session, why);
  session.mutex().unlock();
  if (!why.empty()) warn_counting_once(why, why);
  return ok;
}

void launch_counting::instantiate_exit(const CUpti_CallbackData& cb) {
  range_session* session = t_pending.session;
  t_pending = pending_launch{};
  std::vector<std::vector<double>> ranges;  // nothing ran: instantiation only
  if (session != nullptr) finish(*session, ranges);
  const auto* p = static_cast<const instantiate_params*>(cb.functionParams);
  if (p == nullptr || p->exec == nullptr || *p->exec == nullptr || !ensure_apis()) return;
  graph_shape graph;
  if (target_->graph_kernel_nodes(p->graph, graph))
    graphs_.add_exec(reinterpret_cast<uint64_t>(*p->exec), std::move(graph));
}

void launch_counting::exit(CUpti_CallbackId cbid, const CUpti_CallbackData& cb) {
  if (t_pending.what == pending_launch::kind::none) return;
  backend_call_scope own_calls;
  if (is_instantiate(cbid) && t_pending.what == pending_launch::kind::instantiate) {
    instantiate_exit(cb);
    return;
  }
  pending_launch done = std::move(t_pending);
  t_pending = pending_launch{};
  if (done.session == nullptr) return;
  // Before Stop and decoding: the span ends when the launch returned.
  const uint64_t returned_ns = sink_.timestamp();
  add_counter_time_since(counter_phase::launch, done.timing_start);
  const uint64_t dispatch_id = done.counted.dispatch_info.dispatch_id;
  const bool replayed = done.what != pending_launch::kind::graph &&
                        done.session->active_replay() == CUPTI_KernelReplay;
  if (replayed) replayed_.note(dispatch_id, done.start_ns, returned_ns);
  if (done.what == pending_launch::kind::batched)
    return batched_exit(*done.session, cb, std::move(done.ready));
  std::vector<std::vector<double>> ranges;
  std::vector<uint64_t> durations;
  const bool ok = finish(*done.session, ranges, &durations);
  deliver(done.ready);
  if (done.what == pending_launch::kind::graph) {
    std::vector<finished_dispatch> ready;
    graphs_.collected(done.graph_cupti_id, ok ? std::move(ranges) : decltype(ranges){}, ready,
                      std::move(durations), done.start_ns);
    return deliver(ready);
  }
  if (!ok || ranges.empty()) return lost(done.counted, ok ? "a counted launch gave no range" : "");
  if (ranges.size() != 1)
    warn_counting_once(
        "ranges-per-launch",
        "a counted launch gave " + std::to_string(ranges.size()) + " ranges; its last is used");
  const std::vector<double>& values = ranges.back();
  uint64_t end_ns = returned_ns;
  const uint64_t duration = durations.size() == ranges.size() ? durations.back() : 0;
  if (replayed && duration > 0 && replayed_.narrow(dispatch_id, done.start_ns + duration))
    end_ns = done.start_ns + duration;
  sink_.counting_end(done.counted, values.data(), values.size(), done.start_ns, end_ns);
}

}  // namespace rocprof::cuda
