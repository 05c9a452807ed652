// Batched collection (ROCPROF_CUDA_COUNTER_MODE=batched; kernel-batched at the end) through the
// session's driver callbacks: a one-pass set runs under user replay, the profiler stays started
// across the context's counted launches, and one Stop + DecodeData serves the batch; each dispatch
// still gets the values of its own range (range i of the synthetic host evaluates to 100 i + m).
// The batch is collected before whatever could take a range of its own or must not run under
// the profiler, before a launch of another set, when it is full, and at the end.
#include <gtest/gtest.h>

#include <vector>

#include "counting_fixture.hpp"

namespace rocprof::cuda {
namespace {

constexpr uint32_t driver_launch = CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel;
constexpr uint32_t ctx_synchronize = CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize;
constexpr uint32_t memcpy_dtod = CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2;
constexpr uint32_t graph_launch = CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch;

struct batching_fixture : test::counting_fixture_base {
  uint32_t next_id = 100;
  void SetUp() override {
    api.names[{CUPTI_CB_DOMAIN_DRIVER_API, ctx_synchronize}] = "cuCtxSynchronize";
    api.names[{CUPTI_CB_DOMAIN_DRIVER_API, memcpy_dtod}] = "cuMemcpyDtoD_v2";
    api.names[{CUPTI_CB_DOMAIN_DRIVER_API, driver_launch}] = "cuLaunchKernel";
    start(mode());
  }
  virtual const char* mode() const { return "batched"; }
  void launch(const CUresult* result = nullptr) {
    const cuLaunchKernel_params p = test::launch_params(8, 128);
    driver(driver_launch, next_id++, &p, "_Z1kv", result);
  }
  // `n` counted launches, then the call that collects them (their ranges: n).
  void launch_batch(size_t n, uint32_t flush_cbid = ctx_synchronize) {
    for (size_t i = 0; i < n; ++i)
      launch();
    target.ranges_per_stop.push_back(n);
    driver(flush_cbid, next_id++, nullptr);
  }
  std::vector<double> values_of_range(size_t r) const {
    return {100.0 * static_cast<double>(r), 100.0 * static_cast<double>(r) + 1};
  }
};

TEST_F(batching_fixture, several_launches_one_decode_each_dispatch_its_own_values) {
  for (int i = 0; i < 3; ++i)
    launch();
  EXPECT_EQ(target.count("start"), 1u);
  EXPECT_EQ(target.count("stop"), 0u);
  EXPECT_EQ(target.last_replay_mode, CUPTI_UserReplay);  // one pass: nothing to save, replay
  EXPECT_EQ(target.last_range_mode, CUPTI_AutoRange);
  EXPECT_TRUE(sink.ends.empty());  // values wait for the batch
  target.ranges_per_stop.push_back(3);
  driver(ctx_synchronize, next_id++, nullptr);  // the program synchronises: the batch is read
  EXPECT_EQ(target.count("stop"), 1u);
  EXPECT_EQ(target.count("decode"), 1u);
  ASSERT_EQ(sink.ends.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(sink.ends[i].dispatch_id, sink.asked[i].dispatch_id);
    EXPECT_EQ(sink.ends[i].values, values_of_range(i));
  }
  // The next batch: a new Start, ranges counted on from where the image is.
  launch_batch(2);
  EXPECT_EQ(target.count("start"), 2u);
  ASSERT_EQ(sink.ends.size(), 5u);
  EXPECT_EQ(sink.ends[3].values, values_of_range(3));
  EXPECT_EQ(sink.ends[4].values, values_of_range(4));
  EXPECT_EQ(target.count("set_config"), 1u);
}

TEST_F(batching_fixture, copies_graphs_and_the_end_collect_the_batch_first) {
  launch_batch(2, memcpy_dtod);  // a copy may run as a kernel: it would take a range
  EXPECT_EQ(sink.ends.size(), 2u);
  launch();
  target.ranges_per_stop.push_back(1);
  cuGraphLaunch_params g{reinterpret_cast<CUgraphExec>(0x30), nullptr};
  driver(graph_launch, next_id++, &g);  // graphs are not counted, but must not run under it
  EXPECT_EQ(sink.ends.size(), 3u);
  EXPECT_EQ(target.count("start"), 2u);  // the graph did not start the profiler
  launch();
  launch();
  target.ranges_per_stop.push_back(2);
  session->finish_counting();
  ASSERT_EQ(sink.ends.size(), 5u);
  EXPECT_EQ(sink.ends[4].values, values_of_range(4));
  for (const auto& e : sink.ends)
    EXPECT_FALSE(e.lost);
}

TEST_F(batching_fixture, an_unselected_launch_runs_without_the_profiler) {
  launch();
  launch();
  target.ranges_per_stop.push_back(2);
  const uint64_t counted = sink.set;
  sink.set = 0;  // the tool's filter leaves the next dispatch out
  launch();
  EXPECT_EQ(target.count("stop"), 1u);  // stopped before it
  ASSERT_EQ(sink.ends.size(), 2u);
  EXPECT_EQ(sink.ends[1].values, values_of_range(1));
  sink.set = counted;
  launch_batch(1);
  ASSERT_EQ(sink.ends.size(), 3u);
  EXPECT_EQ(sink.ends[2].dispatch_id, sink.asked[3].dispatch_id);
  EXPECT_EQ(sink.ends[2].values, values_of_range(2));
}

TEST_F(batching_fixture, a_launch_of_another_set_collects_the_batch_first) {
  uint64_t other = 0;
  test::create_counter_set(host, {"sm__cycles_elapsed.max"}, other);
  const uint64_t first = sink.set;
  launch();
  launch();
  target.ranges_per_stop.push_back(2);
  sink.set = other;
  launch();  // another set: the first batch is read, the profiler set up for the other
  ASSERT_EQ(sink.ends.size(), 2u);
  EXPECT_EQ(sink.ends[1].values, values_of_range(1));
  EXPECT_EQ(target.count("set_config"), 2u);
  target.ranges_per_stop.push_back(1);
  sink.set = first;
  launch();
  ASSERT_EQ(sink.ends.size(), 3u);
  EXPECT_EQ(sink.ends[2].values, std::vector<double>{0});  // a fresh object's image, one metric
  target.ranges_per_stop.push_back(1);
  session->finish_counting();
  EXPECT_EQ(sink.ends.size(), 4u);
}

TEST_F(batching_fixture, a_refused_launch_takes_no_range_and_the_others_keep_theirs) {
  launch();
  const CUresult refused = CUDA_ERROR_INVALID_VALUE;
  launch(&refused);
  ASSERT_EQ(sink.ends.size(), 1u);  // finished at once, without values
  EXPECT_TRUE(sink.ends[0].lost);
  EXPECT_EQ(sink.ends[0].dispatch_id, sink.asked[1].dispatch_id);
  launch();
  target.ranges_per_stop.push_back(2);
  driver(ctx_synchronize, next_id++, nullptr);
  ASSERT_EQ(sink.ends.size(), 3u);
  EXPECT_EQ(sink.ends[1].dispatch_id, sink.asked[0].dispatch_id);
  EXPECT_EQ(sink.ends[1].values, values_of_range(0));
  EXPECT_EQ(sink.ends[2].dispatch_id, sink.asked[2].dispatch_id);
  EXPECT_EQ(sink.ends[2].values, values_of_range(1));
}

TEST_F(batching_fixture, ranges_that_do_not_match_give_no_values_and_a_warning) {
  launch();
  launch();
  target.ranges_per_stop.push_back(3);  // something else took a range
  testing::internal::CaptureStderr();
  driver(ctx_synchronize, next_id++, nullptr);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("2 counted launches gave 3 ranges"), std::string::npos) << err;
  ASSERT_EQ(sink.ends.size(), 2u);
  EXPECT_TRUE(sink.ends[0].lost);
  EXPECT_TRUE(sink.ends[1].lost);
}

TEST_F(batching_fixture, a_full_batch_is_collected_after_its_last_launch) {
  const size_t full = range_session::max_ranges / 2;
  target.ranges_per_stop.push_back(full);
  for (size_t i = 0; i < full; ++i)
    launch();
  EXPECT_EQ(target.count("stop"), 1u);
  ASSERT_EQ(sink.ends.size(), full);
  EXPECT_EQ(sink.ends.back().values, values_of_range(full - 1));
  launch_batch(1);  // the image holds two full batches
  ASSERT_EQ(sink.ends.size(), full + 1);
  EXPECT_EQ(sink.ends.back().values, values_of_range(full));
  const size_t inits = target.count("data_init");
  launch_batch(1);  // a full batch would not fit any more: the image is initialised again
  EXPECT_EQ(target.count("data_init"), inits + 1);
  ASSERT_EQ(sink.ends.size(), full + 2);
  EXPECT_EQ(sink.ends.back().values, values_of_range(0));
}

TEST_F(batching_fixture, a_context_being_destroyed_gives_its_batch_first) {
  launch();
  target.ranges_per_stop.push_back(1);
  CUpti_ResourceData rd{};
  rd.context = test::k_context;
  session->on_resource(CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING, rd);
  ASSERT_EQ(sink.ends.size(), 1u);
  EXPECT_EQ(sink.ends[0].values, values_of_range(0));
}

TEST_F(batching_fixture, user_replay_refused_falls_back_to_kernel_replay) {
  target.user_replay_result = CUPTI_ERROR_NOT_SUPPORTED;
  testing::internal::CaptureStderr();
  launch();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("user replay failed"), std::string::npos) << err;
  EXPECT_EQ(target.last_replay_mode, CUPTI_KernelReplay);
  ASSERT_EQ(sink.ends.size(), 1u);  // collected launch by launch
  EXPECT_EQ(sink.ends[0].values, values_of_range(0));
  launch();
  EXPECT_EQ(sink.ends.size(), 2u);
  EXPECT_EQ(target.count("stop"), 2u);
}

// Sets of several passes keep kernel replay, launch by launch.
struct multipass_batching_fixture : batching_fixture {
  void SetUp() override {
    host.passes = 2;
    batching_fixture::SetUp();
  }
};

TEST_F(multipass_batching_fixture, a_multipass_set_is_collected_launch_by_launch) {
  launch();
  EXPECT_EQ(target.last_replay_mode, CUPTI_KernelReplay);
  EXPECT_EQ(target.count("stop"), 1u);
  ASSERT_EQ(sink.ends.size(), 1u);
  EXPECT_EQ(sink.ends[0].values, values_of_range(0));
}

// The two launch-by-launch modes.
struct user_mode_fixture : batching_fixture {
  void SetUp() override { start("user"); }
};

TEST_F(user_mode_fixture, user_replay_launch_by_launch) {
  launch();
  EXPECT_EQ(target.last_replay_mode, CUPTI_UserReplay);
  EXPECT_EQ(target.count("stop"), 1u);
  ASSERT_EQ(sink.ends.size(), 1u);
}

// kernel-batched: the same batching under kernel replay (user replay counted more instructions
// than kernel replay and ncu on the H100).
struct kernel_batching_fixture : batching_fixture {
  const char* mode() const override { return "kernel-batched"; }
};

TEST_F(kernel_batching_fixture, kernel_replay_batches_launches_each_dispatch_its_own_values) {
  for (int i = 0; i < 3; ++i)
    launch();
  EXPECT_EQ(target.count("start"), 1u);
  EXPECT_EQ(target.count("stop"), 0u);
  EXPECT_EQ(target.last_replay_mode, CUPTI_KernelReplay);
  target.ranges_per_stop.push_back(3);
  driver(ctx_synchronize, next_id++, nullptr);
  EXPECT_EQ(target.count("stop"), 1u);
  ASSERT_EQ(sink.ends.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(sink.ends[i].dispatch_id, sink.asked[i].dispatch_id);
    EXPECT_EQ(sink.ends[i].values, values_of_range(i));
  }
}

// Kernel replay leaves the kernel records without times (H100): batched under kernel replay,
// each takes its launch's span (replayed_launch_times). Under user replay records keep theirs.
TEST_F(kernel_batching_fixture, untimed_kernel_records_take_their_launch_spans) {
  sink.clock_step = 10;
  launch_batch(2);
  ASSERT_EQ(sink.ends.size(), 2u);
  CUpti_ActivityKernel10 k{};
  k.kind = CUPTI_ACTIVITY_KIND_KERNEL;
  k.name = "_Z1kv";
  k.correlationId = 101;  // the second launch
  deliver({reinterpret_cast<const CUpti_Activity*>(&k)});
  ASSERT_EQ(sink.kernels.size(), 1u);
  EXPECT_EQ(sink.kernels[0].dispatch_id, sink.ends[1].dispatch_id);
  EXPECT_NE(sink.kernels[0].start_ns, 0u);
  EXPECT_LT(sink.kernels[0].start_ns, sink.kernels[0].end_ns);
}

TEST_F(batching_fixture, user_replay_notes_no_spans) {
  sink.clock_step = 10;
  launch_batch(1);
  CUpti_ActivityKernel10 k{};
  k.kind = CUPTI_ACTIVITY_KIND_KERNEL;
  k.name = "_Z1kv";
  k.correlationId = 100;
  deliver({reinterpret_cast<const CUpti_Activity*>(&k)});
  ASSERT_EQ(sink.kernels.size(), 1u);
  EXPECT_EQ(sink.kernels[0].start_ns, 0u);  // nothing to take: the record is left as it came
}

}  // namespace
}  // namespace rocprof::cuda

namespace rocprof::cuda {
namespace {

// app and app-batched: user and batched with CUPTI_ApplicationReplay (experimental: one pass,
// nothing replayed, CUPTI inserting none of user replay's own work is what the H100 checks).
struct app_mode_fixture : batching_fixture {
  void SetUp() override { start("app"); }
};

TEST_F(app_mode_fixture, application_replay_launch_by_launch) {
  launch();
  EXPECT_EQ(target.last_replay_mode, CUPTI_ApplicationReplay);
  EXPECT_EQ(target.count("stop"), 1u);
  ASSERT_EQ(sink.ends.size(), 1u);
  EXPECT_EQ(sink.ends[0].values, values_of_range(0));
}

struct app_batching_fixture : batching_fixture {
  const char* mode() const override { return "app-batched"; }
};

TEST_F(app_batching_fixture, application_replay_batches_launches_each_dispatch_its_own_values) {
  for (int i = 0; i < 3; ++i)
    launch();
  EXPECT_EQ(target.count("start"), 1u);
  EXPECT_EQ(target.last_replay_mode, CUPTI_ApplicationReplay);
  target.ranges_per_stop.push_back(3);
  driver(ctx_synchronize, next_id++, nullptr);
  ASSERT_EQ(sink.ends.size(), 3u);
  for (size_t i = 0; i < 3; ++i)
    EXPECT_EQ(sink.ends[i].values, values_of_range(i));
}

}  // namespace
}  // namespace rocprof::cuda

namespace rocprof::cuda {
namespace {

// The default (ROCPROF_CUDA_COUNTER_MODE unset or auto): a one-pass set is batched under user
// replay unless one of its metrics depends on the range's length, which only kernel replay
// makes the kernel alone (elapsed cycles 1.10-1.13x ncu's under user replay on the H100).
struct auto_mode_fixture : batching_fixture {
  const char* mode() const override { return "auto"; }
};

TEST_F(auto_mode_fixture, a_one_pass_set_without_elapsed_time_is_batched) {
  for (int i = 0; i < 2; ++i)
    launch();
  EXPECT_EQ(target.last_replay_mode, CUPTI_UserReplay);
  EXPECT_EQ(target.count("start"), 1u);
  EXPECT_EQ(target.count("stop"), 0u);
  target.ranges_per_stop.push_back(2);
  driver(ctx_synchronize, next_id++, nullptr);
  ASSERT_EQ(sink.ends.size(), 2u);
  EXPECT_EQ(sink.ends[1].values, values_of_range(1));
}

struct auto_mode_elapsed_fixture : batching_fixture {
  void SetUp() override {
    batching_fixture::SetUp();
    test::create_counter_set(host, {"sm__cycles_elapsed.max", "smsp__warps_launched.sum"},
                             sink.set);
  }
  const char* mode() const override { return "auto"; }
};

TEST_F(auto_mode_elapsed_fixture, a_set_with_elapsed_cycles_goes_launch_by_launch) {
  launch();
  EXPECT_EQ(target.last_replay_mode, CUPTI_KernelReplay);
  EXPECT_EQ(target.count("stop"), 1u);  // collected right after its launch
  ASSERT_EQ(sink.ends.size(), 1u);
}

TEST(measures_elapsed_time, names_whose_value_depends_on_the_range_length) {
  EXPECT_TRUE(measures_elapsed_time({"sm__cycles_elapsed.max"}));
  EXPECT_TRUE(measures_elapsed_time({"smsp__inst_executed.sum", "gpc__cycles_elapsed.max"}));
  EXPECT_TRUE(measures_elapsed_time({"gpu__time_duration.sum"}));
  EXPECT_TRUE(measures_elapsed_time({"dram__bytes_read.sum.per_second"}));
  EXPECT_TRUE(measures_elapsed_time({"sm__throughput.avg.pct_of_peak_sustained_elapsed"}));
  EXPECT_FALSE(measures_elapsed_time({"smsp__inst_executed.sum", "dram__bytes_read.sum"}));
  EXPECT_FALSE(measures_elapsed_time({"sm__cycles_active.avg"}));
  EXPECT_FALSE(measures_elapsed_time({}));
}

TEST(counting_mode_from_env, unset_or_auto_is_automatic) {
  ::unsetenv("ROCPROF_CUDA_COUNTER_MODE");
  EXPECT_EQ(counting_mode_from_env(), counting_mode::automatic);
  ::setenv("ROCPROF_CUDA_COUNTER_MODE", "auto", 1);
  EXPECT_EQ(counting_mode_from_env(), counting_mode::automatic);
  ::setenv("ROCPROF_CUDA_COUNTER_MODE", "kernel", 1);
  EXPECT_EQ(counting_mode_from_env(), counting_mode::kernel);
  ::unsetenv("ROCPROF_CUDA_COUNTER_MODE");
}

}  // namespace
}  // namespace rocprof::cuda
