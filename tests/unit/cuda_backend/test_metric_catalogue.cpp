// The metric catalogue against the toolkit's real libcupti, offline (no GPU): counts in the
// ranges the reference lists give (shared/reference/nvidia-metrics: GH100 range profiler
// 3 389 counters + 205 ratios + 56 throughputs, PM sampling 611 + 605 + 63), sub-metrics,
// properties, and the validity of full metric names.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "real_profiler_host.hpp"

namespace rocprof::cuda {
namespace {

using test::open_real_catalogue;

class cupti_catalogue : public test::real_profiler_host_test {};

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST_F(cupti_catalogue, gh100_range_profiler_counts_match_the_reference_lists) {
  std::unique_ptr<metric_catalogue> cat;
  ASSERT_NO_FATAL_FAILURE(open_real_catalogue("GH100", CUPTI_PROFILER_TYPE_RANGE_PROFILER, cat));
  const size_t counters = cat->base_metrics(CUPTI_METRIC_TYPE_COUNTER).size();
  const size_t ratios = cat->base_metrics(CUPTI_METRIC_TYPE_RATIO).size();
  const size_t throughputs = cat->base_metrics(CUPTI_METRIC_TYPE_THROUGHPUT).size();
  // Ranges, not equalities: a newer CUPTI may add a few metrics.
  EXPECT_GE(counters, 3000U);
  EXPECT_LE(counters, 4000U);
  EXPECT_GE(ratios, 150U);
  EXPECT_LE(ratios, 300U);
  EXPECT_GE(throughputs, 40U);
  EXPECT_LE(throughputs, 80U);
  EXPECT_EQ(cat->base_metric_count(), counters + ratios + throughputs);
  const auto& c = cat->base_metrics(CUPTI_METRIC_TYPE_COUNTER);
  EXPECT_TRUE(contains(c, "smsp__warps_launched"));
  EXPECT_TRUE(contains(c, "dram__bytes_read"));
  EXPECT_TRUE(contains(c, "sm__cycles_elapsed"));
  EXPECT_TRUE(contains(c, "CTC.TriageCompute.ctc__rx_bytes"));  // a dotted base name
  EXPECT_TRUE(contains(cat->base_metrics(CUPTI_METRIC_TYPE_THROUGHPUT), "dram__throughput"));
  EXPECT_EQ(cat->base_type("dram__throughput"), CUPTI_METRIC_TYPE_THROUGHPUT);
  EXPECT_EQ(cat->base_type("smsp__warps_launched"), CUPTI_METRIC_TYPE_COUNTER);
  EXPECT_FALSE(cat->base_type("SQ_WAVES").has_value());
  // Offline (no availability image) CUPTI allows 88 on GH100; 76 with the H100's image.
  EXPECT_GE(cat->max_hardware_metrics_per_pass(), 60U);
  EXPECT_LE(cat->max_hardware_metrics_per_pass(), 200U);
  // 3 389 x 44 + 205 x 3 + 56 x 8 = 150 179 full names with CUPTI 13.0.
  const size_t full = cat->full_metric_count();
  EXPECT_GE(full, 120000U);
  EXPECT_LE(full, 200000U);
}

TEST_F(cupti_catalogue, pm_sampling_and_other_chips) {
  std::unique_ptr<metric_catalogue> pm;
  ASSERT_NO_FATAL_FAILURE(open_real_catalogue("GH100", CUPTI_PROFILER_TYPE_PM_SAMPLING, pm));
  EXPECT_GE(pm->base_metric_count(), 1100U);  // 1 279 in the reference list
  EXPECT_LE(pm->base_metric_count(), 1500U);
  EXPECT_GE(pm->max_hardware_metrics_per_pass(), 150U);  // 212 on the H100, 248 offline

  std::unique_ptr<metric_catalogue> ga100;
  ASSERT_NO_FATAL_FAILURE(open_real_catalogue("GA100", CUPTI_PROFILER_TYPE_RANGE_PROFILER, ga100));
  EXPECT_GE(ga100->base_metrics(CUPTI_METRIC_TYPE_COUNTER).size(), 2500U);  // 2 876
  EXPECT_LE(ga100->base_metrics(CUPTI_METRIC_TYPE_COUNTER).size(), 3300U);
  EXPECT_TRUE(ga100->check("smsp__warps_launched.sum").valid);
}

TEST_F(cupti_catalogue, sub_metrics_are_roll_ups_and_suffixes_of_each_type) {
  std::unique_ptr<metric_catalogue> cat;
  ASSERT_NO_FATAL_FAILURE(open_real_catalogue("GH100", CUPTI_PROFILER_TYPE_RANGE_PROFILER, cat));
  const auto& counter = cat->sub_metrics("smsp__warps_launched");
  for (const char* s : {".sum", ".avg", ".min", ".max", ".sum.per_second",
                        ".sum.pct_of_peak_sustained_elapsed", ".avg.per_cycle_active"})
    EXPECT_TRUE(contains(counter, s)) << s;
  const auto& throughput = cat->sub_metrics("dram__throughput");
  EXPECT_TRUE(contains(throughput, ".avg.pct_of_peak_sustained_elapsed"));
  EXPECT_FALSE(contains(throughput, ".sum"));
  const auto& ratio = cat->sub_metrics("l1tex__average_t_sectors_per_request");
  EXPECT_TRUE(contains(ratio, ".ratio"));
  EXPECT_TRUE(cat->sub_metrics("SQ_WAVES").empty());
  // Identical lists are one object: every counter shares the first counter's list.
  EXPECT_EQ(&cat->sub_metrics("sm__cycles_elapsed"), &counter);
}

TEST_F(cupti_catalogue, properties_describe_base_and_full_names) {
  std::unique_ptr<metric_catalogue> cat;
  ASSERT_NO_FATAL_FAILURE(open_real_catalogue("GH100", CUPTI_PROFILER_TYPE_RANGE_PROFILER, cat));
  const metric_properties* warps = cat->properties("smsp__warps_launched.sum");
  ASSERT_NE(warps, nullptr);
  EXPECT_EQ(warps->description, "# of warps launched");
  EXPECT_EQ(warps->hw_unit, "smsp");
  EXPECT_EQ(warps->dim_unit, "warp");
  EXPECT_EQ(warps->type, CUPTI_METRIC_TYPE_COUNTER);
  const metric_properties* dram = cat->properties("dram__throughput");
  ASSERT_NE(dram, nullptr);
  EXPECT_EQ(dram->type, CUPTI_METRIC_TYPE_THROUGHPUT);
  EXPECT_EQ(dram->dim_unit, "percent");
  EXPECT_EQ(cat->properties("SQ_WAVES"), nullptr);
  EXPECT_EQ(cat->properties("SQ_WAVES"), nullptr);  // cached refusal
}

TEST_F(cupti_catalogue, known_full_names_are_valid) {
  std::unique_ptr<metric_catalogue> cat;
  ASSERT_NO_FATAL_FAILURE(open_real_catalogue("GH100", CUPTI_PROFILER_TYPE_RANGE_PROFILER, cat));
  for (const char* name :
       {"smsp__warps_launched.sum", "dram__bytes_read.sum", "sm__cycles_elapsed.max",
        "smsp__inst_executed.sum", "gpu__time_duration.sum", "lts__t_bytes.sum",
        "dram__bytes_read.sum.per_second", "sm__warps_active.avg.pct_of_peak_sustained_active",
        "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "l1tex__average_t_sectors_per_request.ratio", "CTC.TriageCompute.ctc__rx_bytes.sum"}) {
    const metric_check& c = cat->check(name);
    EXPECT_TRUE(c.valid) << name << ": " << c.reason;
  }
  const metric_check& split = cat->check("CTC.TriageCompute.ctc__rx_bytes.sum.per_second");
  EXPECT_EQ(split.base, "CTC.TriageCompute.ctc__rx_bytes");
  EXPECT_EQ(split.suffix, ".sum.per_second");
}

TEST_F(cupti_catalogue, amd_names_typos_and_bare_bases_are_rejected_with_a_reason) {
  std::unique_ptr<metric_catalogue> cat;
  ASSERT_NO_FATAL_FAILURE(open_real_catalogue("GH100", CUPTI_PROFILER_TYPE_RANGE_PROFILER, cat));
  for (const char* amd : {"SQ_WAVES", "GRBM_COUNT", "FETCH_SIZE", "TCC_HIT_sum"}) {
    const metric_check& c = cat->check(amd);
    EXPECT_FALSE(c.valid) << amd;
    EXPECT_NE(c.reason.find("is not a metric of GH100"), std::string::npos) << c.reason;
  }
  const metric_check& typo = cat->check("smsp__warps_launchd.sum");
  EXPECT_FALSE(typo.valid);
  EXPECT_NE(typo.reason.find("smsp__warps_launchd.sum"), std::string::npos) << typo.reason;

  const metric_check& suffix = cat->check("smsp__warps_launched.summ");
  EXPECT_FALSE(suffix.valid);
  EXPECT_EQ(suffix.base, "smsp__warps_launched");
  EXPECT_NE(suffix.reason.find("'.summ' is not a roll-up or sub-metric"), std::string::npos)
      << suffix.reason;
  EXPECT_NE(suffix.reason.find(".sum"), std::string::npos) << suffix.reason;

  const metric_check& bare = cat->check("smsp__warps_launched");
  EXPECT_FALSE(bare.valid);
  EXPECT_NE(bare.reason.find("is a base metric"), std::string::npos) << bare.reason;

  EXPECT_FALSE(cat->check("").valid);
  EXPECT_FALSE(cat->check("dram__throughput.sum").valid);  // throughputs have no .sum
  // Cached: the same verdict object comes back.
  EXPECT_EQ(&cat->check("SQ_WAVES"), &cat->check("SQ_WAVES"));
}

TEST_F(cupti_catalogue, supported_chips_and_an_unknown_chip) {
  std::vector<std::string> chips;
  const host_status listed = supported_chips(*api, chips);
  ASSERT_TRUE(listed.ok()) << listed.message;
  EXPECT_GE(chips.size(), 20U);  // 30 with CUPTI 13.0
  EXPECT_TRUE(contains(chips, "GH100"));
  EXPECT_TRUE(contains(chips, "GA100"));

  host_target target;
  target.chip = "XX999";
  std::unique_ptr<metric_catalogue> cat;
  const host_status st = metric_catalogue::open(*api, target, cat);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(cat, nullptr);
  EXPECT_NE(st.message.find("XX999"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("CUPTI_ERROR_INVALID_CHIP_NAME"), std::string::npos) << st.message;

  target.chip = "GH100";
  target.type = CUPTI_PROFILER_TYPE_PROFILER_INVALID;
  EXPECT_FALSE(metric_catalogue::open(*api, target, cat).ok());
}

}  // namespace
}  // namespace rocprof::cuda

namespace rocprof::cuda {
namespace {

TEST(profiler_host_loader, says_why_when_the_host_api_is_missing) {
  cupti_library none;
  none.error = "libcupti not found";
  EXPECT_EQ(open_profiler_host(none).api, nullptr);
  EXPECT_EQ(open_profiler_host(none).error, "libcupti not found");

  // A library without the entry points (libc here; an old libcupti in the field).
  cupti_library libc;
  libc.handle = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(libc.handle, nullptr);
  libc.path = "libc.so.6";
  const profiler_host_library host = open_profiler_host(libc);
  EXPECT_EQ(host.api, nullptr);
  EXPECT_NE(host.error.find("libc.so.6 has no profiler host API"), std::string::npos) << host.error;
  EXPECT_NE(host.error.find("cuptiProfilerHostInitialize"), std::string::npos) << host.error;
  dlclose(libc.handle);
}

}  // namespace
}  // namespace rocprof::cuda
