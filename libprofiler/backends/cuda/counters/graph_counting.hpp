// Counters of graph launches. A graph exec is profilable only when the range profiler was
// started while it was instantiated (probe Q1); each launch then yields one range per kernel
// node and per device-to-device copy node (which runs as a copy kernel), in execution order.
// Which range belongs to which node: in a graph whose nodes form a chain (graph_shape::
// one_order) range i is the i-th such node (`range_index`); otherwise the launch's activity
// records tell, its kernel and copy records sorted by start time lining up with the ranges. On
// the H100 under kernel replay no copy record came and kernel records had no times: there the
// kernel records' arrival order is the ranges' order (kernel replay runs them one at a time),
// so chains and graphs without copy nodes are counted; parallel branches with a copy node
// among them get no values.
//
// Times under kernel replay: the nodes' records come untimed, but each range carries its kernel's
// own duration (gpu__time_duration, added to the config where it costs no pass), and kernel
// replay runs the launch's kernels one at a time in range order. A node's span is then laid out
// as the replay ran them: the first starts when the launch went ahead (profiler running), each
// next one when the one before ended by its own duration (copy ranges included). The starts
// are thus the earliest each node can have begun, the durations their own; the same span goes to
// the node's kernel row and counter row. A record processed before its launch's ranges were
// decoded keeps its zeros (the race replayed_launch_times.hpp describes for single launches).
//
// Dispatch ids are given at launch, in the graph's node order (the dispatch callback needs
// them before the launch); a kernel record of the launch takes the id of the first node not
// yet matched with the same kernel and the same grid and block, so parallel branches that run
// out of node order still get their own ids.
//
// Pure bookkeeping, no CUDA call: unit-tested with synthetic launches and records.
#pragma once

#include <rocprofiler-sdk/backend/backend_abi.h>

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <vector>

#include "counters/range_profiler_api.hpp"

namespace rocprof::cuda {

// One kernel node of one launch.
struct graph_node_dispatch {
  rocprof_counted_dispatch_t counted{};  // counted.config == 0: not counted
  uint64_t dispatch_id = 0;
  uint64_t kernel_id = 0;
  uint32_t grid_threads[3] = {0, 0, 0};
  uint32_t block[3] = {0, 0, 0};
  bool collected = false;  // counted in this launch's ranges (its config's set was the one)
  int range_index = -1;    // its range in a graph of one order (-1: told by the records)
};

// A counted dispatch whose values are known: what goes to counting_dispatch_end.
struct finished_dispatch {
  rocprof_counted_dispatch_t counted{};
  std::vector<double> values;  // empty: lost (the core is told so)
  uint64_t start_ns = 0, end_ns = 0;
};

class graph_counting {
 public:
  // The nodes of an instantiated graph exec that take ranges (in dependency order).
  void add_exec(uint64_t exec, graph_shape shape);
  bool exec_nodes(uint64_t exec, graph_shape& shape);

  // A launch of a counted graph, keyed by the CUPTI correlation id its records carry. A
  // cudaGraphLaunch has two: the runtime call's and its cuGraphLaunch's; CUPTI documents the
  // graph's records as carrying the driver call's, so records of either id find the launch
  // (`also_id`, 0 or equal to cupti_id when there is one id).
  // `ordered_ranges`: the ranges a launch of a one-order graph gives (its kernel and copy
  // nodes; the nodes' range_index say which is whose), 0 for other graphs.
  void launched(uint32_t cupti_id, std::vector<graph_node_dispatch> nodes, uint32_t also_id = 0,
                size_t ordered_ranges = 0);
  // The ranges its Start/Stop produced (values per range, in execution order), with each
  // range's kernel duration in ns when the config measured it (`durations`, one per range, else
  // empty) and when the launch went ahead with the profiler running (`launch_start_ns`).
  void collected(uint32_t cupti_id, std::vector<std::vector<double>> ranges,
                 std::vector<finished_dispatch>& ready, std::vector<uint64_t> durations = {},
                 uint64_t launch_start_ns = 0);

  // A kernel record of correlation `cupti_id`: the dispatch id it takes (0: not a counted
  // graph launch; the caller numbers it as any other). not_a_node: a record no node of the
  // launch is left for, which the range profiler made (CUPTI's WaitNs kernels, three per
  // launch on the H100, and the kernels a replay of several passes runs again): not the
  // application's work. A node takes a record of its kernel (kernel id 0: unknown, any).
  // An untimed record (start and end 0) of a launch whose ranges are known gets its node's
  // span under kernel replay in `replayed_start_ns`/`replayed_end_ns` (left alone otherwise).
  static constexpr uint64_t not_a_node = ~uint64_t{0};
  uint64_t kernel_record(uint32_t cupti_id, uint64_t kernel_id, const uint32_t grid_threads[3],
                         const uint32_t block[3], uint64_t start_ns, uint64_t end_ns,
                         std::vector<finished_dispatch>& ready,
                         uint64_t* replayed_start_ns = nullptr,
                         uint64_t* replayed_end_ns = nullptr);
  // A device-to-device copy record of correlation `cupti_id` (a copy node's range).
  void copy_record(uint32_t cupti_id, uint64_t start_ns, std::vector<finished_dispatch>& ready);

  // Gives up on launches still waiting for records (at the final flush): each counted node is
  // finished without values.
  void abandon(std::vector<finished_dispatch>& ready);

 private:
  struct record {
    uint64_t start_ns = 0, end_ns = 0;
    int node = -1;  // kernel record: its node; -1: a copy record
    uint64_t replayed_start_ns = 0, replayed_end_ns = 0;  // an untimed record's laid-out span
  };
  struct pending {
    std::vector<graph_node_dispatch> nodes;
    bool ranges_known = false;
    std::vector<std::vector<double>> ranges;
    std::vector<uint64_t> durations;  // per range, or empty
    uint64_t launch_start_ns = 0;
    std::vector<record> records;
    size_t kernels_matched = 0;
    uint32_t also_id = 0;  // its entry in aliases_, 0 when none
    size_t ordered_ranges = 0;
  };
  void try_resolve(std::map<uint32_t, pending>::iterator it, std::vector<finished_dispatch>& ready);
  // Kernel records only, none with times (kernel replay's, as the H100 gives them).
  static bool all_untimed_kernels(const std::vector<record>& records);
  // The range of an untimed kernel record about to be added for `node` (-1: not known yet).
  static int untimed_range_of(const pending& p, int node);
  // Sets r.replayed_* from the ranges' durations when its range is known.
  static void lay_out_replayed(const pending& p, int range, record& r);
  std::map<uint32_t, pending>::iterator find_locked(uint32_t cupti_id);

  std::mutex mutex_;
  std::map<uint64_t, graph_shape> execs_;
  std::map<uint32_t, pending> launches_;
  std::map<uint32_t, uint32_t> aliases_;  // the launch's other CUPTI id -> its key
  // Launches already resolved, by both their CUPTI ids, so that the range profiler's records
  // that come after the launch's own are still known (the latest `finished_kept` launches).
  static constexpr size_t finished_kept = 256;
  void remember_finished_locked(uint32_t cupti_id, const pending& p);
  std::set<uint32_t> finished_;
  std::deque<uint32_t> finished_order_;
};

}  // namespace rocprof::cuda
