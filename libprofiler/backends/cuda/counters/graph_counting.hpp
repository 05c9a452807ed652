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
  // The ranges its Start/Stop produced (values per range, in execution order).
  void collected(uint32_t cupti_id, std::vector<std::vector<double>> ranges,
                 std::vector<finished_dispatch>& ready);

  // A kernel record of correlation `cupti_id`: the dispatch id it takes (0: not a counted
  // graph launch; the caller numbers it as any other). not_a_node: a record no node of the
  // launch is left for, which the range profiler made (CUPTI's WaitNs kernels, three per
  // launch on the H100, and the kernels a replay of several passes runs again): not the
  // application's work. A node takes a record of its kernel (kernel id 0: unknown, any).
  static constexpr uint64_t not_a_node = ~uint64_t{0};
  uint64_t kernel_record(uint32_t cupti_id, uint64_t kernel_id, const uint32_t grid_threads[3],
                         const uint32_t block[3], uint64_t start_ns, uint64_t end_ns,
                         std::vector<finished_dispatch>& ready);
  // A device-to-device copy record of correlation `cupti_id` (a copy node's range).
  void copy_record(uint32_t cupti_id, uint64_t start_ns, std::vector<finished_dispatch>& ready);

  // Gives up on launches still waiting for records (at the final flush): each counted node is
  // finished without values.
  void abandon(std::vector<finished_dispatch>& ready);

 private:
  struct record {
    uint64_t start_ns = 0, end_ns = 0;
    int node = -1;  // kernel record: its node; -1: a copy record
  };
  struct pending {
    std::vector<graph_node_dispatch> nodes;
    bool ranges_known = false;
    std::vector<std::vector<double>> ranges;
    std::vector<record> records;
    size_t kernels_matched = 0;
    uint32_t also_id = 0;  // its entry in aliases_, 0 when none
    size_t ordered_ranges = 0;
  };
  void try_resolve(std::map<uint32_t, pending>::iterator it, std::vector<finished_dispatch>& ready);
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
