// Pass counting and config images against the toolkit's real libcupti, offline.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "metrics/metric_config.hpp"
#include "real_profiler_host.hpp"

namespace rocprof::cuda {
namespace {

host_target gh100(CUpti_ProfilerType type = CUPTI_PROFILER_TYPE_RANGE_PROFILER) {
  host_target t;
  t.chip = "GH100";
  t.type = type;
  return t;
}

class cupti_config : public test::real_profiler_host_test {};

TEST_F(cupti_config, three_metrics_fit_one_pass) {
  const std::vector<std::string> metrics{"smsp__warps_launched.sum", "dram__bytes_read.sum",
                                         "sm__cycles_elapsed.max"};
  metric_config config;
  const host_status st = build_metric_config(*api, gh100(), metrics, config);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(config.passes, 1U);
  EXPECT_GT(config.image.size(), 0U);  // 1 592 bytes with CUPTI 13.0 (cupti-notes §5)
  EXPECT_EQ(config.metrics, metrics);
  EXPECT_TRUE(static_cast<bool>(config.host));  // kept for evaluation
  size_t again = 0;
  ASSERT_TRUE(count_passes(*api, config.image, again).ok());
  EXPECT_EQ(again, 1U);
}

TEST_F(cupti_config, a_large_group_needs_several_passes) {
  // The 12-metric group of cupti-notes §5 (3 passes on the H100 with its availability image;
  // 2 offline, where CUPTI assumes every counter is available).
  const std::vector<std::string> metrics{"smsp__warps_launched.sum",
                                         "dram__bytes_read.sum",
                                         "sm__cycles_elapsed.max",
                                         "smsp__inst_executed.sum",
                                         "lts__t_bytes.sum",
                                         "sm__warps_active.avg.pct_of_peak_sustained_active",
                                         "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                                         "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
                                         "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
                                         "dram__bytes_write.sum",
                                         "l1tex__t_bytes.sum",
                                         "gpu__time_duration.sum"};
  metric_config config;
  const host_status st = build_metric_config(*api, gh100(), metrics, config);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_GT(config.passes, 1U);
  EXPECT_GT(config.image.size(), 0U);
}

TEST_F(cupti_config, pm_sampling_configs_too) {
  metric_config config;
  const host_status st = build_metric_config(*api, gh100(CUPTI_PROFILER_TYPE_PM_SAMPLING),
                                             {"gr__cycles_active.avg", "sm__cycles_active.avg",
                                              "dram__bytes_read.sum", "sm__inst_executed.sum"},
                                             config);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(config.passes, 1U);  // PM sampling needs single-pass configs (cupti-notes §2(c))
}

TEST_F(cupti_config, refusals_name_the_metrics) {
  metric_config config;
  host_status st = build_metric_config(*api, gh100(), {}, config);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("no metrics"), std::string::npos) << st.message;

  st = build_metric_config(*api, gh100(), {"smsp__warps_launched.sum", "SQ_WAVES"}, config);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("SQ_WAVES"), std::string::npos) << st.message;
  EXPECT_EQ(st.message.find("smsp__warps_launched.sum"), std::string::npos) << st.message;
  EXPECT_TRUE(config.image.empty());
  EXPECT_EQ(config.passes, 0U);

  host_target unknown = gh100();
  unknown.chip = "XX999";
  st = build_metric_config(*api, unknown, {"smsp__warps_launched.sum"}, config);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("XX999"), std::string::npos) << st.message;

  // Valid alone, refused together (CUPTI 13.0 on GH100: NOT_SUPPORTED): the message says so.
  EXPECT_TRUE(try_metrics(*api, gh100(), {"ctc__rx_bytes.sum"}).ok());
  EXPECT_TRUE(try_metrics(*api, gh100(), {"dram__bytes_read.sum"}).ok());
  st = build_metric_config(*api, gh100(), {"ctc__rx_bytes.sum", "dram__bytes_read.sum"}, config);
  EXPECT_EQ(st.code, CUPTI_ERROR_NOT_SUPPORTED) << st.message;
  EXPECT_NE(st.message.find("cannot schedule them together"), std::string::npos) << st.message;

  EXPECT_TRUE(try_metrics(*api, gh100(), {"smsp__warps_launched.sum"}).ok());
  EXPECT_FALSE(try_metrics(*api, gh100(), {"smsp__warps_launched"}).ok());
}

}  // namespace
}  // namespace rocprof::cuda
