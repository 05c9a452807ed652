// Graph launches: which range is whose. Ranges come in execution order; the launch's kernel
// and device-to-device copy records, sorted by start, tell them apart; kernel records take the
// dispatch ids given at launch, matched by kernel, grid and block.
#include <gtest/gtest.h>

#include <utility>

#include "counters/graph_counting.hpp"

namespace rocprof::cuda {
namespace {

graph_node_dispatch node(uint64_t dispatch_id, uint64_t kernel_id, uint32_t grid, bool counted) {
  graph_node_dispatch n;
  n.dispatch_id = dispatch_id;
  n.kernel_id = kernel_id;
  n.grid_threads[0] = grid;
  n.grid_threads[1] = n.grid_threads[2] = 1;
  n.block[0] = 256;
  n.block[1] = n.block[2] = 1;
  n.counted.config = counted ? 1 : 0;
  n.counted.dispatch_info.dispatch_id = dispatch_id;
  n.collected = counted;
  return n;
}

uint64_t kernel(graph_counting& g, uint32_t id, uint64_t kernel_id, uint32_t grid, uint64_t start,
                std::vector<finished_dispatch>& ready) {
  const uint32_t threads[3] = {grid, 1, 1};
  const uint32_t block[3] = {256, 1, 1};
  return g.kernel_record(id, kernel_id, threads, block, start, start + 5, ready);
}

// A record as kernel replay leaves it (start and end 0); `span` gets what the launch lays out.
uint64_t untimed_kernel(graph_counting& g, uint32_t id, uint64_t kernel_id, uint32_t grid,
                        std::vector<finished_dispatch>& ready,
                        std::pair<uint64_t, uint64_t>& span) {
  const uint32_t threads[3] = {grid, 1, 1};
  const uint32_t block[3] = {256, 1, 1};
  span = {0, 0};
  return g.kernel_record(id, kernel_id, threads, block, 0, 0, ready, &span.first, &span.second);
}

std::vector<double> range(double v) {
  return {v, v + 1};
}

TEST(graph_counting, kernel_copy_kernel_chain) {
  graph_counting g;
  g.launched(9, {node(11, 1, 4096, true), node(12, 2, 256, true)});
  std::vector<finished_dispatch> ready;
  g.collected(9, {range(10), range(20), range(30)}, ready);  // vec_add, D2D copy, fma
  EXPECT_TRUE(ready.empty());                                // records still to come
  EXPECT_EQ(kernel(g, 9, 1, 4096, 100, ready), 11u);
  g.copy_record(9, 200, ready);
  EXPECT_EQ(kernel(g, 9, 2, 256, 300, ready), 12u);
  ASSERT_EQ(ready.size(), 2u);
  EXPECT_EQ(ready[0].counted.dispatch_info.dispatch_id, 11u);
  EXPECT_EQ(ready[0].values, range(10));
  EXPECT_EQ(ready[0].start_ns, 100u);
  EXPECT_EQ(ready[1].counted.dispatch_info.dispatch_id, 12u);
  EXPECT_EQ(ready[1].values, range(30));  // the copy's range is skipped
}

TEST(graph_counting, records_before_ranges_and_out_of_node_order) {
  graph_counting g;
  // Parallel branches: node order A, B; B ran first.
  g.launched(4, {node(1, 7, 1024, true), node(2, 8, 2048, true)});
  std::vector<finished_dispatch> ready;
  EXPECT_EQ(kernel(g, 4, 8, 2048, 50, ready), 2u);
  EXPECT_EQ(kernel(g, 4, 7, 1024, 60, ready), 1u);
  EXPECT_TRUE(ready.empty());
  g.collected(4, {range(1), range(2)}, ready);
  ASSERT_EQ(ready.size(), 2u);
  EXPECT_EQ(ready[0].counted.dispatch_info.dispatch_id, 2u);  // B's range is the first
  EXPECT_EQ(ready[0].values, range(1));
  EXPECT_EQ(ready[1].counted.dispatch_info.dispatch_id, 1u);
  EXPECT_EQ(ready[1].values, range(2));
}

// A cudaGraphLaunch is keyed by the runtime call's CUPTI id; the graph's records may carry its
// cuGraphLaunch's id instead (as CUPTI documents for graph records): they find the launch too,
// and later records with either id are the profiler's.
TEST(graph_counting, records_carrying_the_driver_calls_id_find_the_launch) {
  graph_counting g;
  g.launched(20, {node(5, 3, 512, true), node(6, 4, 512, true)}, 21);
  std::vector<finished_dispatch> ready;
  g.collected(20, {range(1), range(2)}, ready);
  EXPECT_EQ(kernel(g, 21, 3, 512, 10, ready), 5u);
  EXPECT_EQ(kernel(g, 21, 4, 512, 20, ready), 6u);
  ASSERT_EQ(ready.size(), 2u);
  EXPECT_EQ(ready[1].values, range(2));
  EXPECT_EQ(kernel(g, 21, 3, 512, 30, ready), graph_counting::not_a_node);  // resolved
  EXPECT_EQ(kernel(g, 20, 3, 512, 40, ready), graph_counting::not_a_node);
}

TEST(graph_counting, copies_without_ranges_leave_kernel_order) {
  graph_counting g;
  g.launched(5, {node(1, 1, 64, true), node(2, 1, 64, true)});
  std::vector<finished_dispatch> ready;
  g.collected(5, {range(1), range(2)}, ready);
  kernel(g, 5, 1, 64, 10, ready);
  g.copy_record(5, 20, ready);  // a host copy node: no range, but a record
  kernel(g, 5, 1, 64, 30, ready);
  ASSERT_EQ(ready.size(), 2u);
  EXPECT_EQ(ready[0].values, range(1));
  EXPECT_EQ(ready[1].values, range(2));
}

TEST(graph_counting, uncounted_nodes_keep_their_ids_and_give_nothing) {
  graph_counting g;
  g.launched(6, {node(5, 1, 64, false), node(6, 2, 64, true)});
  std::vector<finished_dispatch> ready;
  g.collected(6, {range(3)}, ready);
  EXPECT_EQ(kernel(g, 6, 1, 64, 10, ready), 5u);
  EXPECT_EQ(kernel(g, 6, 2, 64, 20, ready), 6u);
  // Two kernels, one range: ranges equal neither the records nor the kernels; the counted node
  // is finished without values rather than with a wrong range.
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0].counted.dispatch_info.dispatch_id, 6u);
  EXPECT_TRUE(ready[0].values.empty());
  // Unknown correlation: not a counted graph launch.
  EXPECT_EQ(kernel(g, 99, 1, 64, 10, ready), 0u);
}

TEST(graph_counting, abandon_finishes_counted_nodes_without_values) {
  graph_counting g;
  g.launched(7, {node(1, 1, 64, true)});
  std::vector<finished_dispatch> ready;
  g.abandon(ready);
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_TRUE(ready[0].values.empty());
  ready.clear();
  EXPECT_EQ(kernel(g, 7, 1, 64, 10, ready), 0u);  // forgotten
}

// Parallel branches (no single order) whose kernel records carry no times, as under kernel
// replay on the H100: kernel replay runs the kernels one at a time and their records arrive
// in that order, which is the ranges' order. Here B ran (and was recorded) first.
TEST(graph_counting, untimed_records_of_parallel_branches_line_up_in_arrival_order) {
  graph_counting g;
  g.launched(4, {node(1, 7, 1024, true), node(2, 8, 2048, true)});
  std::vector<finished_dispatch> ready;
  g.collected(4, {range(10), range(20)}, ready);
  EXPECT_EQ(kernel(g, 4, 8, 2048, 0, ready), 2u);
  EXPECT_EQ(kernel(g, 4, 7, 1024, 0, ready), 1u);
  ASSERT_EQ(ready.size(), 2u);
  EXPECT_EQ(ready[0].counted.dispatch_info.dispatch_id, 2u);
  EXPECT_EQ(ready[0].values, range(10));
  EXPECT_EQ(ready[1].counted.dispatch_info.dispatch_id, 1u);
  EXPECT_EQ(ready[1].values, range(20));
}

// A copy node took a range too, and no copy record says where it ran among the untimed
// kernels: no values rather than shuffled ones.
TEST(graph_counting, untimed_records_with_a_copy_range_give_no_values) {
  graph_counting g;
  g.launched(4, {node(1, 7, 1024, true), node(2, 8, 2048, true)});
  std::vector<finished_dispatch> ready;
  g.collected(4, {range(10), range(20), range(30)}, ready);
  EXPECT_EQ(kernel(g, 4, 8, 2048, 0, ready), 2u);
  EXPECT_EQ(kernel(g, 4, 7, 1024, 0, ready), 1u);
  ASSERT_EQ(ready.size(), 2u);
  EXPECT_TRUE(ready[0].values.empty());
  EXPECT_TRUE(ready[1].values.empty());
}

TEST(graph_counting, exec_nodes_are_kept_per_exec) {
  graph_counting g;
  graph_kernel_node n;
  n.name = "_Z1kv";
  g.add_exec(0x1234, graph_shape{{n, n}, true});
  graph_shape got;
  ASSERT_TRUE(g.exec_nodes(0x1234, got));
  EXPECT_EQ(got.nodes.size(), 2u);
  EXPECT_TRUE(got.one_order);
  EXPECT_FALSE(g.exec_nodes(0x9999, got));
}

// Launch 9 of a chain: kernel node 11 (kernel 1) -> a D2D copy node -> kernel node 12 (kernel
// 2), three ranges.
void launch_chain_with_a_copy(graph_counting& g) {
  graph_node_dispatch a = node(11, 1, 4096, true), b = node(12, 2, 256, true);
  a.range_index = 0;
  b.range_index = 2;  // range 1 is the copy node's
  g.launched(9, {a, b}, 0, 3);
}

// What the H100 showed under kernel replay: a kernel -> D2D copy -> kernel chain gives three
// ranges, the copy node brings no memcpy record, and the kernel records carry no times. The
// chain's order says whose range is whose.
TEST(graph_counting, a_chain_maps_ranges_by_node_order_without_copy_records) {
  graph_counting g;
  launch_chain_with_a_copy(g);
  std::vector<finished_dispatch> ready;
  g.collected(9, {range(10), range(20), range(30)}, ready);
  EXPECT_EQ(kernel(g, 9, 2, 256, 0, ready), 12u);  // records in any order, no times
  EXPECT_TRUE(ready.empty());
  EXPECT_EQ(kernel(g, 9, 1, 4096, 0, ready), 11u);
  ASSERT_EQ(ready.size(), 2u);
  for (const finished_dispatch& f : ready)
    EXPECT_EQ(f.values, f.counted.dispatch_info.dispatch_id == 11 ? range(10) : range(30));
}

// CUPTI's WaitNs kernels come with the graph launch's id (three per launch on the H100), and a
// replay of several passes runs the nodes' kernels again: records no node is left for are the
// profiler's, also after the launch was resolved. A node whose kernel is unknown (id 0) takes
// any record.
TEST(graph_counting, records_no_node_is_left_for_are_the_profilers) {
  graph_counting g;
  g.launched(9, {node(11, 1, 4096, true)});
  std::vector<finished_dispatch> ready;
  EXPECT_EQ(kernel(g, 9, 99, 32, 5, ready), graph_counting::not_a_node);
  EXPECT_EQ(kernel(g, 9, 1, 4096, 10, ready), 11u);
  g.collected(9, {range(10)}, ready);
  ASSERT_EQ(ready.size(), 1u);  // resolved
  EXPECT_EQ(kernel(g, 9, 99, 32, 15, ready), graph_counting::not_a_node);
  EXPECT_EQ(kernel(g, 9, 1, 4096, 20, ready), graph_counting::not_a_node);  // a replay's
  EXPECT_EQ(kernel(g, 8, 1, 4096, 30, ready), 0u);                          // not a counted launch
  g.launched(7, {node(21, 0, 64, true)});
  EXPECT_EQ(kernel(g, 7, 5, 64, 40, ready), 21u);
}

// Under kernel replay each range carries its kernel's duration, and the replay ran the nodes
// one at a time in range order from the launch's start: a chain's untimed records take spans
// laid out that way (the copy node's range takes its time too), and their counter rows the same.
TEST(graph_counting, replayed_chain_nodes_take_spans_laid_out_by_their_durations) {
  graph_counting g;
  launch_chain_with_a_copy(g);
  std::vector<finished_dispatch> ready;
  g.collected(9, {range(10), range(20), range(30)}, ready, {100, 50, 30}, 1000);
  std::pair<uint64_t, uint64_t> span;
  EXPECT_EQ(untimed_kernel(g, 9, 2, 256, ready, span), 12u);  // any arrival order
  EXPECT_EQ(span, std::make_pair(uint64_t{1150}, uint64_t{1180}));
  EXPECT_EQ(untimed_kernel(g, 9, 1, 4096, ready, span), 11u);
  EXPECT_EQ(span, std::make_pair(uint64_t{1000}, uint64_t{1100}));
  ASSERT_EQ(ready.size(), 2u);
  for (const finished_dispatch& f : ready) {
    const bool first = f.counted.dispatch_info.dispatch_id == 11;
    EXPECT_EQ(f.start_ns, first ? 1000u : 1150u);
    EXPECT_EQ(f.end_ns, first ? 1100u : 1180u);
  }
}

// Parallel branches under kernel replay: the arrival order is the ranges' order, and so the
// order the spans are laid out in.
TEST(graph_counting, replayed_parallel_nodes_take_spans_in_arrival_order) {
  graph_counting g;
  g.launched(4, {node(1, 7, 1024, true), node(2, 8, 2048, true)});
  std::vector<finished_dispatch> ready;
  g.collected(4, {range(10), range(20)}, ready, {40, 60}, 500);
  std::pair<uint64_t, uint64_t> span;
  EXPECT_EQ(untimed_kernel(g, 4, 8, 2048, ready, span), 2u);
  EXPECT_EQ(span, std::make_pair(uint64_t{500}, uint64_t{540}));
  EXPECT_EQ(untimed_kernel(g, 4, 7, 1024, ready, span), 1u);
  EXPECT_EQ(span, std::make_pair(uint64_t{540}, uint64_t{600}));
  ASSERT_EQ(ready.size(), 2u);
  EXPECT_EQ(ready[0].start_ns, 500u);
  EXPECT_EQ(ready[1].end_ns, 600u);
}

// What is not laid out: records that came before the ranges were decoded (their kernel rows
// already went out untimed, so the counter rows stay untimed too), ranges without durations,
// and untimed kernels among which a copy took a range (no order is known).
TEST(graph_counting, spans_are_laid_out_only_when_durations_and_order_are_known) {
  std::pair<uint64_t, uint64_t> span;
  {
    graph_counting g;
    g.launched(4, {node(1, 7, 1024, true), node(2, 8, 2048, true)});
    std::vector<finished_dispatch> ready;
    EXPECT_EQ(untimed_kernel(g, 4, 8, 2048, ready, span), 2u);
    EXPECT_EQ(span, std::make_pair(uint64_t{0}, uint64_t{0}));
    EXPECT_EQ(untimed_kernel(g, 4, 7, 1024, ready, span), 1u);
    g.collected(4, {range(10), range(20)}, ready, {40, 60}, 500);
    ASSERT_EQ(ready.size(), 2u);
    EXPECT_EQ(ready[0].values, range(10));
    EXPECT_EQ(ready[0].start_ns, 0u);
    EXPECT_EQ(ready[1].end_ns, 0u);
  }
  {
    graph_counting g;
    g.launched(4, {node(1, 7, 1024, true), node(2, 8, 2048, true)});
    std::vector<finished_dispatch> ready;
    g.collected(4, {range(10), range(20)}, ready);  // no durations
    EXPECT_EQ(untimed_kernel(g, 4, 8, 2048, ready, span), 2u);
    EXPECT_EQ(span, std::make_pair(uint64_t{0}, uint64_t{0}));
  }
  {
    graph_counting g;
    g.launched(4, {node(1, 7, 1024, true), node(2, 8, 2048, true)});
    std::vector<finished_dispatch> ready;
    g.collected(4, {range(10), range(20), range(30)}, ready, {40, 60, 20}, 500);
    EXPECT_EQ(untimed_kernel(g, 4, 8, 2048, ready, span), 2u);
    EXPECT_EQ(span, std::make_pair(uint64_t{0}, uint64_t{0}));
  }
}

}  // namespace
}  // namespace rocprof::cuda
