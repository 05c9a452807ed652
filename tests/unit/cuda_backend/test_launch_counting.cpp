// Counted launches through the session's driver callbacks, with synthetic CUPTI, a synthetic
// range profiler and a sink that plays the core's counting service: the dispatch is named
// before it runs (dispatch id, kernel id, grid in threads, context as queue), the values come
// back after the launch, and the kernel record that arrives later keeps the dispatch id and
// correlation id, for plain launches (also under a runtime call) and for graph launches.
#include <gtest/gtest.h>

#include <vector>

#include "counting_fixture.hpp"

namespace rocprof::cuda {
namespace {

using test::launch_params;

constexpr uint32_t runtime_launch = 211;
constexpr uint32_t driver_launch = CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel;
constexpr uint32_t graph_instantiate = CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags;
constexpr uint32_t graph_launch = CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch;

struct counting_fixture : test::counting_fixture_base {
  void SetUp() override { start("kernel"); }
};

CUpti_ActivityKernel10 kernel_record(uint32_t cupti_id, const char* name, uint32_t grid,
                                     uint32_t block, uint64_t start, uint32_t graph = 0) {
  CUpti_ActivityKernel10 k{};
  k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  k.name = name;
  k.correlationId = cupti_id;
  k.gridX = static_cast<int32_t>(grid);
  k.gridY = k.gridZ = 1;
  k.blockX = static_cast<int32_t>(block);
  k.blockY = k.blockZ = 1;
  k.start = start;
  k.end = start + 10;
  k.graphId = graph;
  return k;
}

template <typename T>
const CUpti_Activity* as_record(const T& r) {
  return static_cast<const CUpti_Activity*>(static_cast<const void*>(&r));
}

TEST_F(counting_fixture, a_runtime_launch_is_named_counted_and_joined) {
  const cuLaunchKernel_params p = launch_params(16, 256);
  call(CUPTI_CB_DOMAIN_RUNTIME_API, runtime_launch, 76, CUPTI_API_ENTER, nullptr);
  driver(driver_launch, 77, &p, "_Z6vecaddv");
  call(CUPTI_CB_DOMAIN_RUNTIME_API, runtime_launch, 76, CUPTI_API_EXIT, nullptr);

  ASSERT_EQ(sink.asked.size(), 1u);
  const rocprofiler_kernel_dispatch_info_t& info = sink.asked[0];
  EXPECT_EQ(info.grid_size.x, 4096u);  // threads, as rocprofv3 counts the grid
  EXPECT_EQ(info.workgroup_size.x, 256u);
  EXPECT_EQ(info.queue_id.handle, 3u);
  EXPECT_EQ(info.group_segment_size, 128u);
  EXPECT_NE(info.kernel_id, 0u);
  EXPECT_NE(info.dispatch_id, 0u);
  ASSERT_EQ(sink.ends.size(), 1u);
  EXPECT_FALSE(sink.ends[0].lost);
  EXPECT_EQ(sink.ends[0].values, (std::vector<double>{0, 1}));  // range 0 of the session
  EXPECT_EQ(target.count("start"), 1u);
  EXPECT_EQ(target.count("stop"), 1u);

  // The kernel record carries the runtime call's CUPTI id: it keeps the launch's ids.
  const auto k = kernel_record(76, "_Z6vecaddv", 16, 256, 1000);
  deliver({as_record(k)});
  ASSERT_EQ(sink.kernels.size(), 1u);
  EXPECT_EQ(sink.kernels[0].dispatch_id, info.dispatch_id);
  EXPECT_EQ(sink.kernels[0].correlation_id, sink.asked_correlation[0]);
  EXPECT_EQ(sink.kernels[0].kernel_id, info.kernel_id);
}

// Seen on the H100 under user replay: CUPTI's range profiler runs a kernel of its own ("WaitNs")
// inside each counted launch call, and its record carries the launch's CUPTI id. It must not
// take the launch's dispatch id (the kernel trace then named the counted dispatch "WaitNs"), nor
// appear as the application's work; the launched kernel's record keeps the ids, whichever of the
// two records comes first.
TEST_F(counting_fixture, the_range_profilers_own_kernel_does_not_take_the_launch_ids) {
  const cuLaunchKernel_params p = launch_params(16, 256);
  driver(driver_launch, 90, &p, "_Z6vecaddv");
  ASSERT_EQ(sink.asked.size(), 1u);
  const auto own = kernel_record(90, "WaitNs", 1, 32, 900);
  const auto launched = kernel_record(90, "_Z6vecaddv", 16, 256, 1000);
  const auto own_after = kernel_record(90, "WaitNs", 1, 32, 1100);
  deliver({as_record(own), as_record(launched), as_record(own_after)});
  ASSERT_EQ(sink.kernels.size(), 1u);
  EXPECT_EQ(sink.kernels[0].dispatch_id, sink.asked[0].dispatch_id);
  EXPECT_EQ(sink.kernels[0].kernel_id, sink.asked[0].kernel_id);
  EXPECT_EQ(session->counts().profiler_kernels, 2u);
  EXPECT_EQ(sink.symbols.size(), 1u);  // WaitNs is no kernel of the program's
}

// Seen on the H100 (sessions 7-9): the records of kernels counted with kernel replay carry 0 as
// start and end. Such a record takes its launch's start and the kernel's duration (the counter
// record's span too); a record with times of its own keeps them.
TEST_F(counting_fixture, a_kernel_counted_with_kernel_replay_takes_its_launch_span) {
  sink.clock_step = 100;
  const cuLaunchKernel_params p = launch_params(16, 256);
  driver(driver_launch, 30, &p, "_Z6vecaddv");
  driver(driver_launch, 31, &p, "_Z6vecaddv");
  ASSERT_EQ(sink.ends.size(), 2u);
  const auto& counted = sink.ends[0];
  // Narrowed to the kernel's own duration: the range's gpu__time_duration (2 ns for range 0 in
  // the synthetic host), inside the launch's span.
  EXPECT_EQ(counted.end_ns - counted.start_ns, 2u);
  auto untimed = kernel_record(30, "_Z6vecaddv", 16, 256, 0);
  untimed.end = 0;
  const auto timed = kernel_record(31, "_Z6vecaddv", 16, 256, 5000);
  deliver({as_record(untimed), as_record(timed)});
  ASSERT_EQ(sink.kernels.size(), 2u);
  EXPECT_EQ(sink.kernels[0].start_ns, counted.start_ns);
  EXPECT_EQ(sink.kernels[0].end_ns, counted.end_ns);
  EXPECT_EQ(sink.kernels[1].start_ns, 5000u);
  EXPECT_EQ(sink.kernels[1].end_ns, 5010u);

  // A span is taken once: a second untimed record of the same launch keeps its zeros.
  deliver({as_record(untimed)});
  ASSERT_EQ(sink.kernels.size(), 3u);
  EXPECT_EQ(sink.kernels[2].start_ns, 0u);
}

// Seen on the H100: starting the range profiler inside a stream capture broke the capture
// (cudaMemcpyAsync then failed with "operation failed due to a previous error during capture").
// A launch into a capturing stream runs nothing: it is neither asked about nor counted.
TEST_F(counting_fixture, a_launch_into_a_capturing_stream_is_not_counted) {
  cuLaunchKernel_params p = launch_params(4, 64);
  p.hStream = reinterpret_cast<CUstream>(0x5);
  target.capturing = p.hStream;
  driver(driver_launch, 9, &p, "_Z1kv");
  EXPECT_TRUE(sink.asked.empty());
  EXPECT_TRUE(sink.ends.empty());
  EXPECT_EQ(target.count("start"), 0u);
  target.capturing = nullptr;  // the same launch outside a capture is counted
  driver(driver_launch, 10, &p, "_Z1kv");
  EXPECT_EQ(sink.asked.size(), 1u);
  EXPECT_EQ(target.count("start"), 1u);
}

TEST_F(counting_fixture, an_unselected_launch_never_starts_the_profiler) {
  sink.set = 0;
  const cuLaunchKernel_params p = launch_params(1, 32);
  driver(driver_launch, 5, &p, "_Z1kv");
  EXPECT_EQ(sink.asked.size(), 1u);
  EXPECT_TRUE(sink.ends.empty());
  EXPECT_EQ(target.count("start"), 0u);
  EXPECT_EQ(target.count("enable"), 0u);  // nothing set up either
  const auto k = kernel_record(5, "_Z1kv", 1, 32, 10);
  deliver({as_record(k)});
  ASSERT_EQ(sink.kernels.size(), 1u);
  EXPECT_EQ(sink.kernels[0].dispatch_id, sink.asked[0].dispatch_id);
}

// ROCPROF_CUDA_COUNT_GRAPHS=0 switches graph counting off (launch_counting.cpp).
struct graph_counting_off {
  graph_counting_off() { ::setenv("ROCPROF_CUDA_COUNT_GRAPHS", "0", 1); }
  ~graph_counting_off() { ::unsetenv("ROCPROF_CUDA_COUNT_GRAPHS"); }
};

TEST_F(counting_fixture, graph_counting_can_be_switched_off) {
  const graph_counting_off off;
  const auto graph = reinterpret_cast<CUgraph>(0x20);
  graph_kernel_node a;
  a.name = "_Z1av";
  a.grid[0] = a.grid[1] = a.grid[2] = 1;
  a.block[0] = 64, a.block[1] = a.block[2] = 1;
  target.graphs[graph] = graph_shape{{a}, true};
  CUgraphExec exec = reinterpret_cast<CUgraphExec>(0x30);
  cuGraphInstantiateWithFlags_params inst{&exec, graph, 0};
  driver(graph_instantiate, 80, &inst);
  cuGraphLaunch_params launch{exec, nullptr};
  driver(graph_launch, 81, &launch);
  EXPECT_EQ(target.count("start"), 0u);  // the profiler never ran around the graph
  EXPECT_TRUE(sink.asked.empty());       // no dispatch of the graph was offered for counting
}

TEST_F(counting_fixture, graph_kernels_get_their_ranges_through_the_records) {
  const auto graph = reinterpret_cast<CUgraph>(0x20);
  graph_kernel_node a, b;
  a.name = "_Z1av";
  a.grid[0] = 16, a.grid[1] = a.grid[2] = 1;
  a.block[0] = 256, a.block[1] = a.block[2] = 1;
  b.name = "_Z1bv";
  b.grid[0] = b.grid[1] = b.grid[2] = 1;
  b.block[0] = 64, b.block[1] = b.block[2] = 1;
  target.graphs[graph] = graph_shape{{a, b}, false};  // order told by the records

  CUgraphExec exec = reinterpret_cast<CUgraphExec>(0x30);
  cuGraphInstantiateWithFlags_params inst{&exec, graph, 0};
  target.ranges_per_stop.push_back(0);  // instantiation runs nothing
  driver(graph_instantiate, 80, &inst);
  EXPECT_EQ(target.count("start"), 1u);  // the profiler ran while the graph was instantiated

  cuGraphLaunch_params launch{exec, nullptr};
  target.ranges_per_stop.push_back(3);  // kernel a, the D2D copy node, kernel b
  driver(graph_launch, 90, &launch);
  ASSERT_EQ(sink.asked.size(), 2u);  // once per kernel node, in node order
  EXPECT_EQ(sink.asked[0].grid_size.x, 4096u);
  EXPECT_EQ(sink.asked[1].workgroup_size.x, 64u);
  EXPECT_TRUE(sink.ends.empty());  // values wait for the records
  // The nodes' kernels are known before the launch is decided (the tool's kernel filter).
  EXPECT_EQ(sink.symbols,
            (std::vector<std::pair<uint64_t, std::string>>{{sink.asked[0].kernel_id, "_Z1av"},
                                                           {sink.asked[1].kernel_id, "_Z1bv"}}));

  const auto ka = kernel_record(90, "_Z1av", 16, 256, 100, 1);
  CUpti_ActivityMemcpy6 copy{};
  copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOD;
  copy.correlationId = 90;
  copy.graphId = 1;
  copy.start = 200;
  copy.end = 210;
  const auto kb = kernel_record(90, "_Z1bv", 1, 64, 300, 1);
  deliver({as_record(ka), as_record(copy), as_record(kb)});

  ASSERT_EQ(sink.kernels.size(), 2u);
  EXPECT_EQ(sink.symbols.size(), 2u);  // not reported again by the records
  EXPECT_EQ(sink.kernels[0].dispatch_id, sink.asked[0].dispatch_id);
  EXPECT_EQ(sink.kernels[1].dispatch_id, sink.asked[1].dispatch_id);
  ASSERT_EQ(sink.ends.size(), 2u);
  EXPECT_EQ(sink.ends[0].dispatch_id, sink.asked[0].dispatch_id);
  EXPECT_EQ(sink.ends[0].values, (std::vector<double>{0, 1}));  // range 0
  EXPECT_EQ(sink.ends[1].dispatch_id, sink.asked[1].dispatch_id);
  EXPECT_EQ(sink.ends[1].values, (std::vector<double>{200, 201}));  // range 2 (1: the copy)
}

}  // namespace
}  // namespace rocprof::cuda

namespace rocprof::cuda {
namespace {

struct auto_counting_fixture : test::counting_fixture_base {
  void SetUp() override { start("auto"); }
};

// The H100's case (counter_app): kernel -> device-to-device copy -> kernel, a chain. The graph
// runs under kernel replay whatever the mode (user replay failed at instantiation), its three
// ranges go to the nodes by their place in the chain though no copy record comes, and CUPTI's
// WaitNs records of the launch are nobody's dispatch.
TEST_F(auto_counting_fixture, a_chain_with_a_copy_node_is_counted_under_kernel_replay) {
  const auto graph = reinterpret_cast<CUgraph>(0x20);
  graph_kernel_node a, copy, b;
  a.name = "_Z1av";
  a.grid[0] = 16, a.grid[1] = a.grid[2] = 1;
  a.block[0] = 256, a.block[1] = a.block[2] = 1;
  copy.copy = true;
  b.name = "_Z1bv";
  b.grid[0] = b.grid[1] = b.grid[2] = 1;
  b.block[0] = 64, b.block[1] = b.block[2] = 1;
  target.graphs[graph] = graph_shape{{a, copy, b}, true};
  CUgraphExec exec = reinterpret_cast<CUgraphExec>(0x30);
  cuGraphInstantiateWithFlags_params inst{&exec, graph, 0};
  target.ranges_per_stop.push_back(0);
  driver(graph_instantiate, 80, &inst);
  EXPECT_EQ(target.last_replay_mode, CUPTI_KernelReplay);
  cuGraphLaunch_params launch{exec, nullptr};
  target.ranges_per_stop.push_back(3);
  driver(graph_launch, 90, &launch);
  EXPECT_EQ(target.last_replay_mode, CUPTI_KernelReplay);
  ASSERT_EQ(sink.asked.size(), 2u);  // the copy node is no dispatch

  const auto wait1 = kernel_record(90, "WaitNs", 1, 32, 50, 1);
  const auto ka = kernel_record(90, "_Z1av", 16, 256, 0, 1);
  const auto kb = kernel_record(90, "_Z1bv", 1, 64, 0, 1);
  const auto wait2 = kernel_record(90, "WaitNs", 1, 32, 60, 1);
  deliver({as_record(wait1), as_record(ka), as_record(kb), as_record(wait2)});
  ASSERT_EQ(sink.kernels.size(), 2u);
  EXPECT_EQ(sink.kernels[0].dispatch_id, sink.asked[0].dispatch_id);
  EXPECT_EQ(sink.kernels[1].dispatch_id, sink.asked[1].dispatch_id);
  EXPECT_EQ(session->counts().profiler_kernels, 2u);
  EXPECT_EQ(sink.symbols.size(), 2u);  // _Z1av and _Z1bv, not WaitNs
  ASSERT_EQ(sink.ends.size(), 2u);
  EXPECT_EQ(sink.ends[0].values, (std::vector<double>{0, 1}));      // range 0
  EXPECT_EQ(sink.ends[1].values, (std::vector<double>{200, 201}));  // range 2 (1: the copy)
}

}  // namespace
}  // namespace rocprof::cuda
