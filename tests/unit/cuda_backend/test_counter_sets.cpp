// The CUDA agent's native counters from the toolkit's real libcupti (no GPU): the listing the
// core builds its catalogue from, sub-metrics on request, and counter sets with their passes.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "counters/counter_sets.hpp"
#include "real_profiler_host.hpp"

namespace rocprof::cuda {
namespace {

class cuda_counter_sets : public test::real_profiler_host_test {
 protected:
  void SetUp() override {
    test::real_profiler_host_test::SetUp();
    if (api == nullptr) return;
    sets.configure(api, [](int) { return std::string(); });  // offline: sm_90 -> GH100
    gpu_agent h100;
    h100.compute_major = 9;
    h100.sm_count = 132;
    h100.warp_size = 32;
    sets.add_agent(7, h100);
  }
  counter_sets sets;
};

struct collected {
  std::set<std::string> names;
  std::vector<std::pair<std::string, double>> constants;
  size_t accumulating = 0;
};

void collect(const rocprof_backend_counter_t* c, uint64_t n, void* user) {
  auto* out = static_cast<collected*>(user);
  for (uint64_t i = 0; i < n; ++i) {
    out->names.insert(c[i].name);
    if (c[i].is_constant != 0) out->constants.emplace_back(c[i].name, c[i].constant_value);
    out->accumulating += c[i].accumulates_per_cycle != 0 ? 1 : 0;
  }
}

TEST_F(cuda_counter_sets, lists_metrics_with_rollups_and_agent_constants) {
  collected got;
  const char* architecture = nullptr;
  ASSERT_EQ(sets.list(7, &architecture, collect, &got), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(architecture, "sm_90");
  for (const char* name :
       {"smsp__warps_launched.sum", "smsp__warps_launched.max", "dram__bytes_read.sum",
        "sm__cycles_elapsed.max", "sm__warps_active.sum"})
    EXPECT_EQ(got.names.count(name), 1u) << name;
  EXPECT_EQ(got.names.count("dram__bytes_read.sum.per_second"), 0u);  // on request only
  EXPECT_GT(got.names.size(), 13000u);
  EXPECT_LT(got.names.size(), 20000u);
  EXPECT_GT(got.accumulating, 0u);  // "cumulative # of ..." metrics (accumulate())
  const std::vector<std::pair<std::string, double>> expected = {{"simd_count", 528},
                                                                {"simd_per_cu", 4},
                                                                {"simd_arrays_per_engine", 1},
                                                                {"wave_front_size", 32},
                                                                {"array_count", 8}};
  EXPECT_EQ(got.constants, expected);
  EXPECT_EQ(sets.list(8, &architecture, collect, &got), ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
}

TEST_F(cuda_counter_sets, describes_sub_metrics_on_request) {
  collected got;
  std::string why;
  EXPECT_EQ(sets.describe(7, "dram__bytes_read.sum.per_second", collect, &got, why),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(got.names.count("dram__bytes_read.sum.per_second"), 1u);
  EXPECT_EQ(sets.describe(7, "dram__bytes_red.sum", collect, &got, why),
            ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND);
  EXPECT_FALSE(why.empty());
}

TEST_F(cuda_counter_sets, sets_plan_passes_offline) {
  uint64_t handle = 0, passes = 0;
  std::string why;
  ASSERT_EQ(
      sets.create(7, {"smsp__warps_launched.sum", "dram__bytes_read.sum"}, handle, passes, why),
      ROCPROFILER_STATUS_SUCCESS)
      << why;
  EXPECT_NE(handle, 0u);
  EXPECT_EQ(passes, 1u);
  counter_set s;
  ASSERT_TRUE(sets.find(handle, s));
  EXPECT_EQ(s.chip, "GH100");
  EXPECT_EQ(s.agent_id, 7u);
  EXPECT_EQ(sets.create(7, {"no_such__metric.sum"}, handle, passes, why),
            ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT);
}

}  // namespace
}  // namespace rocprof::cuda
