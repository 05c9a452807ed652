#include "counters/graph_counting.hpp"

#include <algorithm>

namespace rocprof::cuda {

void graph_counting::add_exec(uint64_t exec, graph_shape shape) {
  std::lock_guard<std::mutex> lock(mutex_);
  execs_[exec] = std::move(shape);
}

bool graph_counting::exec_nodes(uint64_t exec, graph_shape& shape) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = execs_.find(exec);
  if (it == execs_.end()) return false;
  shape = it->second;
  return true;
}

void graph_counting::launched(uint32_t cupti_id, std::vector<graph_node_dispatch> nodes,
                              uint32_t also_id, size_t ordered_ranges) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending& p = launches_[cupti_id];
  p = pending{};
  p.nodes = std::move(nodes);
  p.ordered_ranges = ordered_ranges;
  if (also_id != 0 && also_id != cupti_id) {
    p.also_id = also_id;
    aliases_[also_id] = cupti_id;
  }
}

std::map<uint32_t, graph_counting::pending>::iterator graph_counting::find_locked(
    uint32_t cupti_id) {
  const auto it = launches_.find(cupti_id);
  if (it != launches_.end()) return it;
  const auto alias = aliases_.find(cupti_id);
  return alias != aliases_.end() ? launches_.find(alias->second) : launches_.end();
}

void graph_counting::collected(uint32_t cupti_id, std::vector<std::vector<double>> ranges,
                               std::vector<finished_dispatch>& ready,
                               std::vector<uint64_t> durations, uint64_t launch_start_ns) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = find_locked(cupti_id);
  if (it == launches_.end()) return;
  pending& p = it->second;
  if (durations.size() == ranges.size()) p.durations = std::move(durations);
  p.launch_start_ns = launch_start_ns;
  p.ranges = std::move(ranges);
  p.ranges_known = true;
  try_resolve(it, ready);
}

bool graph_counting::all_untimed_kernels(const std::vector<record>& records) {
  return std::all_of(records.begin(), records.end(),
                     [](const record& r) { return r.start_ns == 0 && r.node >= 0; });
}

int graph_counting::untimed_range_of(const pending& p, int node) {
  if (!p.ranges_known || p.durations.empty() || p.launch_start_ns == 0) return -1;
  if (p.ordered_ranges != 0 && p.ranges.size() == p.ordered_ranges)
    return p.nodes[static_cast<size_t>(node)].range_index;
  // Otherwise the arrival order, as try_resolve lines them up: kernels alone took ranges.
  if (!all_untimed_kernels(p.records) || p.ranges.size() != p.nodes.size()) return -1;
  return static_cast<int>(p.records.size());
}

void graph_counting::lay_out_replayed(const pending& p, int range, record& r) {
  if (range < 0 || static_cast<size_t>(range) >= p.durations.size()) return;
  const auto own = p.durations[static_cast<size_t>(range)];
  if (own == 0) return;
  uint64_t start = p.launch_start_ns;
  for (int i = 0; i < range; ++i)
    start += p.durations[static_cast<size_t>(i)];
  r.replayed_start_ns = start;
  r.replayed_end_ns = start + own;
}

uint64_t graph_counting::kernel_record(uint32_t cupti_id, uint64_t kernel_id,
                                       const uint32_t grid_threads[3], const uint32_t block[3],
                                       uint64_t start_ns, uint64_t end_ns,
                                       std::vector<finished_dispatch>& ready,
                                       uint64_t* replayed_start_ns, uint64_t* replayed_end_ns) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = find_locked(cupti_id);
  if (it == launches_.end()) return finished_.count(cupti_id) != 0 ? not_a_node : 0;
  pending& p = it->second;
  std::vector<bool> taken(p.nodes.size(), false);
  for (const record& r : p.records)
    if (r.node >= 0) taken[static_cast<size_t>(r.node)] = true;
  auto same_shape = [&](const graph_node_dispatch& n) {
    return n.kernel_id == kernel_id &&
           std::equal(n.grid_threads, n.grid_threads + 3, grid_threads) &&
           std::equal(n.block, n.block + 3, block);
  };
  int node = -1;
  for (size_t i = 0; i < p.nodes.size() && node < 0; ++i)
    if (!taken[i] && same_shape(p.nodes[i])) node = static_cast<int>(i);
  for (size_t i = 0; i < p.nodes.size() && node < 0; ++i)  // the same kernel, another shape
    if (!taken[i] && p.nodes[i].kernel_id == kernel_id) node = static_cast<int>(i);
  for (size_t i = 0; i < p.nodes.size() && node < 0; ++i)  // a node whose kernel is unknown
    if (!taken[i] && p.nodes[i].kernel_id == 0) node = static_cast<int>(i);
  if (node < 0) return not_a_node;
  record r{start_ns, end_ns, node};
  if (start_ns == 0 && end_ns == 0) {
    lay_out_replayed(p, untimed_range_of(p, node), r);
    if (r.replayed_end_ns != 0 && replayed_start_ns != nullptr && replayed_end_ns != nullptr) {
      *replayed_start_ns = r.replayed_start_ns;
      *replayed_end_ns = r.replayed_end_ns;
    }
  }
  p.records.push_back(r);
  ++p.kernels_matched;
  const uint64_t dispatch_id = p.nodes[static_cast<size_t>(node)].dispatch_id;
  try_resolve(it, ready);
  return dispatch_id;
}

void graph_counting::copy_record(uint32_t cupti_id, uint64_t start_ns,
                                 std::vector<finished_dispatch>& ready) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = find_locked(cupti_id);
  if (it == launches_.end()) return;
  it->second.records.push_back(record{start_ns, start_ns, -1});
  try_resolve(it, ready);
}

void graph_counting::try_resolve(std::map<uint32_t, pending>::iterator it,
                                 std::vector<finished_dispatch>& ready) {
  pending& p = it->second;
  if (!p.ranges_known || p.kernels_matched < p.nodes.size()) return;
  std::vector<record> order = p.records;
  std::stable_sort(order.begin(), order.end(),
                   [](const record& a, const record& b) { return a.start_ns < b.start_ns; });
  const size_t kernels = p.kernels_matched;
  std::vector<size_t> range_of(order.size(), SIZE_MAX);
  if (p.ordered_ranges != 0 && p.ranges.size() == p.ordered_ranges) {
    // A chain: each node's range is its place among the nodes that take ranges.
    for (size_t i = 0; i < order.size(); ++i)
      if (order[i].node >= 0) {
        const int index = p.nodes[static_cast<size_t>(order[i].node)].range_index;
        if (index >= 0) range_of[i] = static_cast<size_t>(index);
      }
  } else if (std::any_of(order.begin(), order.end(),
                         [](const record& r) { return r.start_ns == 0; })) {
    // Records without times: kernel replay (which graph launches are counted with) leaves
    // kernel records untimed on the H100. It also runs the launch's kernels one at a time,
    // each replayed alone, and their records arrive in that order, the ranges' order (the
    // H100 check: counter_app --parallel-graph). With kernels alone taking ranges, the i-th
    // record is the i-th range (`order` keeps arrival order: a stable sort of equal keys).
    // With copies among them (no copy records come under kernel replay) or times on some
    // records only, nothing tells the order: no values rather than shuffled ones.
    if (all_untimed_kernels(order) && p.ranges.size() == order.size())
      for (size_t i = 0; i < order.size(); ++i)
        range_of[i] = i;
  } else if (p.ranges.size() == order.size()) {
    // Every kernel and copy took a range: they line up in execution order.
    for (size_t i = 0; i < order.size(); ++i)
      range_of[i] = i;
  } else if (p.ranges.size() == kernels) {
    // Only kernels took ranges (no device-to-device copy among the nodes that ran as kernels).
    size_t next = 0;
    for (size_t i = 0; i < order.size(); ++i)
      if (order[i].node >= 0) range_of[i] = next++;
  } else if (p.ranges.size() > order.size()) {
    return;  // copy records still to come
  }
  // else: ranges and records disagree; the counted nodes are finished without values.
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i].node < 0) continue;
    const graph_node_dispatch& n = p.nodes[static_cast<size_t>(order[i].node)];
    if (!n.collected) continue;
    finished_dispatch f;
    f.counted = n.counted;
    if (range_of[i] != SIZE_MAX) f.values = p.ranges[range_of[i]];
    const bool laid_out = order[i].replayed_end_ns != 0;  // set for untimed records only
    f.start_ns = laid_out ? order[i].replayed_start_ns : order[i].start_ns;
    f.end_ns = laid_out ? order[i].replayed_end_ns : order[i].end_ns;
    ready.push_back(std::move(f));
  }
  remember_finished_locked(it->first, p);
  if (p.also_id != 0) aliases_.erase(p.also_id);
  launches_.erase(it);
}

void graph_counting::remember_finished_locked(uint32_t cupti_id, const pending& p) {
  for (uint32_t id : {cupti_id, p.also_id}) {
    if (id == 0 || !finished_.insert(id).second) continue;
    finished_order_.push_back(id);
  }
  while (finished_order_.size() > finished_kept) {
    finished_.erase(finished_order_.front());
    finished_order_.pop_front();
  }
}

void graph_counting::abandon(std::vector<finished_dispatch>& ready) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [id, p] : launches_)
    for (const graph_node_dispatch& n : p.nodes)
      if (n.collected) {
        finished_dispatch f;
        f.counted = n.counted;
        ready.push_back(std::move(f));
      }
  launches_.clear();
  aliases_.clear();
}

}  // namespace rocprof::cuda
