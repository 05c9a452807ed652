// The range profiler of one context through the synthetic target and host sides: lazy set-up
// in the first launch, AutoRange + KernelReplay, ranges evaluated per Start/Stop, a set switch
// as Disable + Enable + SetConfig, and the counter data image initialised again before it fills.
#include <gtest/gtest.h>

#include "counters/range_session.hpp"
#include "synthetic_range_profiler.hpp"

namespace rocprof::cuda {
namespace {

counter_set set_of(uint64_t handle, std::vector<std::string> metrics) {
  counter_set s;
  s.handle = handle;
  s.chip = "GH100";
  s.metrics = std::move(metrics);
  s.passes = 1;
  return s;
}

struct session_fixture : testing::Test {
  test::synthetic_range_profiler target;
  test::synthetic_counting_host host;
  range_session session{target, host, reinterpret_cast<CUcontext>(0x10), 0, "GH100"};
  counter_set a = set_of(1, {"smsp__warps_launched.sum", "dram__bytes_read.sum"});
  counter_set b = set_of(2, {"sm__cycles_elapsed.max"});

  std::vector<std::vector<double>> launch(const counter_set& s, size_t ranges = 1) {
    target.ranges_per_stop.push_back(ranges);
    std::string why;
    EXPECT_TRUE(session.begin(s, why)) << why;
    std::vector<std::vector<double>> out;
    EXPECT_TRUE(session.end(out, why)) << why;
    return out;
  }
  // One Start/Stop of `s` giving `ranges` ranges; their values, and each range's kernel
  // duration in `durations`.
  std::vector<std::vector<double>> launch_timed(const counter_set& s, size_t ranges,
                                                std::vector<uint64_t>& durations) {
    std::string why;
    EXPECT_TRUE(session.begin(s, why)) << why;
    target.ranges_per_stop.push_back(ranges);
    std::vector<std::vector<double>> out;
    EXPECT_TRUE(session.end(out, why, &durations)) << why;
    return out;
  }
};

TEST_F(session_fixture, first_launch_sets_up_and_each_launch_gets_its_ranges) {
  const auto first = launch(a);
  EXPECT_LE(target.count("initialize"), 1u);  // once per process (another test may have)
  EXPECT_EQ(target.count("enable"), 1u);
  EXPECT_EQ(target.count("set_config"), 1u);
  EXPECT_EQ(target.last_range_mode, CUPTI_AutoRange);
  EXPECT_EQ(target.last_replay_mode, CUPTI_KernelReplay);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0], (std::vector<double>{0, 1}));  // range 0, metrics 0 and 1
  // The next launch evaluates only the new range (ranges accumulate in the image).
  const auto second = launch(a);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0], (std::vector<double>{100, 101}));
  EXPECT_EQ(target.count("set_config"), 1u);  // same set: no new config
  // A graph launch: three ranges at once.
  EXPECT_EQ(launch(a, 3).size(), 3u);
  // The config image was built with the context's availability image, once, and again with
  // the kernel's duration, which costs no pass here and is kept.
  ASSERT_EQ(host.configured.size(), 2u);
  EXPECT_EQ(host.configured[0], a.metrics);
  std::vector<std::string> timed = a.metrics;
  timed.push_back(range_session::kernel_duration_metric);
  EXPECT_EQ(host.configured[1], timed);
}

// The duration is the config's last metric: the set's values stay the set's, and the caller
// asking for durations gets them (gpu__time_duration.sum, ns) range by range.
TEST_F(session_fixture, kernel_durations_ride_along_where_they_cost_no_pass) {
  std::vector<uint64_t> durations;
  const auto ranges = launch_timed(a, 2, durations);
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[1], (std::vector<double>{100, 101}));
  EXPECT_EQ(durations, (std::vector<uint64_t>{2, 102}));  // metric 2 of ranges 0 and 1
}

TEST_F(session_fixture, a_set_with_the_duration_gives_its_own) {
  const counter_set timed = set_of(3, {"smsp__warps_launched.sum", "gpu__time_duration.sum"});
  std::vector<uint64_t> durations;
  const auto ranges = launch_timed(timed, 1, durations);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0], (std::vector<double>{0, 1}));
  EXPECT_EQ(durations, (std::vector<uint64_t>{1}));
  EXPECT_EQ(host.configured.size(), 1u);  // nothing added
}

TEST_F(session_fixture, a_duration_that_costs_a_pass_is_left_out) {
  host.costs_a_pass = range_session::kernel_duration_metric;
  std::vector<uint64_t> durations;
  const auto ranges = launch_timed(a, 1, durations);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0], (std::vector<double>{0, 1}));
  EXPECT_EQ(durations, (std::vector<uint64_t>{0}));
  std::string why;
  EXPECT_EQ(session.passes(a, why), 1u);
}

TEST_F(session_fixture, switching_sets_recreates_the_profiler) {
  launch(a);
  const auto values = launch(b);
  EXPECT_EQ(session.switches(), 1u);
  EXPECT_EQ(target.count("disable"), 1u);
  EXPECT_EQ(target.count("enable"), 2u);
  EXPECT_EQ(target.count("set_config"), 2u);
  ASSERT_EQ(values.size(), 1u);
  EXPECT_EQ(values[0].size(), 1u);
  EXPECT_EQ(session.active_set(), 2u);
  launch(b);
  EXPECT_EQ(session.switches(), 1u);  // consecutive dispatches of one set: no switch
}

TEST_F(session_fixture, counter_data_is_initialised_again_before_it_fills) {
  launch(a);
  const size_t inits = target.count("data_init");
  launch(a, range_session::max_ranges - 10);
  launch(a);  // would not leave room for a large graph: a fresh image first
  EXPECT_EQ(target.count("data_init"), inits + 1);
}

// Batched collection: one Start, several launches, one Stop; the same set again is no new Start.
TEST_F(session_fixture, user_replay_keeps_the_profiler_started_across_launches) {
  std::string why;
  EXPECT_EQ(session.passes(a, why), 1u) << why;
  ASSERT_TRUE(session.begin(a, CUPTI_UserReplay, range_session::max_ranges / 2, why)) << why;
  EXPECT_EQ(target.last_replay_mode, CUPTI_UserReplay);
  EXPECT_EQ(target.last_range_mode, CUPTI_AutoRange);
  EXPECT_TRUE(session.started());
  ASSERT_TRUE(session.begin(a, CUPTI_UserReplay, range_session::max_ranges / 2, why)) << why;
  EXPECT_EQ(target.count("start"), 1u);
  // Another set while a batch runs: refused (the caller collects the batch first).
  EXPECT_FALSE(session.begin(b, CUPTI_UserReplay, 1, why));
  target.ranges_per_stop.push_back(3);
  std::vector<std::vector<double>> out;
  ASSERT_TRUE(session.end(out, why)) << why;
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[2], (std::vector<double>{200, 201}));
  EXPECT_FALSE(session.started());
  // Kernel replay for the same set needs a new profiler object (a new SetConfig).
  launch(a);
  EXPECT_EQ(target.last_replay_mode, CUPTI_KernelReplay);
  EXPECT_EQ(session.switches(), 1u);
}

TEST_F(session_fixture, a_batch_gets_a_fresh_image_when_it_might_not_fit) {
  std::string why;
  launch(a, range_session::max_ranges / 2 + 10);
  const size_t inits = target.count("data_init");
  ASSERT_TRUE(session.begin(a, CUPTI_KernelReplay, range_session::max_ranges / 2, why)) << why;
  EXPECT_EQ(target.count("data_init"), inits + 1);
}

TEST_F(session_fixture, a_refused_start_is_reported) {
  target.start_result = CUPTI_ERROR_NOT_SUPPORTED;
  std::string why;
  EXPECT_FALSE(session.begin(a, why));
  EXPECT_NE(why.find("cuptiRangeProfilerStart"), std::string::npos);
  EXPECT_NE(why.find("PC sampling"), std::string::npos);
}

}  // namespace
}  // namespace rocprof::cuda
