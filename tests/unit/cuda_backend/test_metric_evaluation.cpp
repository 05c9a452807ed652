// Evaluation needs a counter data image that only a GPU fills, so the plumbing is checked with
// a synthetic profiler host API, and the real libcupti only for refusing a bad image cleanly.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "metrics/metric_config.hpp"
#include "metrics/metric_evaluation.hpp"
#include "real_profiler_host.hpp"
#include "synthetic_profiler_host.hpp"

namespace rocprof::cuda {
namespace {

TEST(metric_evaluation, hands_cupti_the_config_host_object_range_and_names) {
  test::synthetic_profiler_host api;
  metric_config config;
  config.metrics = {"smsp__warps_launched.sum", "dram__bytes_read.sum"};
  ASSERT_TRUE(host_object::open(api, host_target{"GH100", CUPTI_PROFILER_TYPE_RANGE_PROFILER, {}},
                                config.host)
                  .ok());
  const std::vector<uint8_t> image(64, 7);
  api.values = {32768.0, 1.5e6};
  std::vector<double> values;
  const host_status st =
      evaluate_range(api, config, counter_data_view{image.data(), image.size()}, 3, values);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(values, api.values);
  EXPECT_EQ(api.evaluated_object, config.host.get());
  EXPECT_EQ(api.evaluated_image, image.data());
  EXPECT_EQ(api.evaluated_image_size, image.size());
  EXPECT_EQ(api.evaluated_range, 3U);
  EXPECT_EQ(api.evaluated_names, config.metrics);
}

TEST(metric_evaluation, failures_say_which_range) {
  test::synthetic_profiler_host api;
  metric_config config;
  config.metrics = {"smsp__warps_launched.sum"};
  std::vector<double> values;
  // No host object: refused before CUPTI is asked.
  EXPECT_FALSE(evaluate_range(api, config, counter_data_view{}, 0, values).ok());
  EXPECT_TRUE(api.evaluated_names.empty());

  ASSERT_TRUE(host_object::open(api, host_target{"GH100", CUPTI_PROFILER_TYPE_RANGE_PROFILER, {}},
                                config.host)
                  .ok());
  api.evaluate_result = CUPTI_ERROR_INVALID_PARAMETER;
  const host_status st = evaluate_range(api, config, counter_data_view{}, 5, values);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.code, CUPTI_ERROR_INVALID_PARAMETER);
  EXPECT_NE(st.message.find("range 5"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("CUPTI_ERROR_SYNTHETIC"), std::string::npos) << st.message;
  EXPECT_EQ(values, std::vector<double>{0.0});
  config.host.reset();
  EXPECT_EQ(api.deinitialized, 1);
}

TEST(metric_evaluation, range_names_are_copied_and_freed) {
  test::synthetic_profiler_host api;
  api.name = "kernel/inner";
  std::string name;
  ASSERT_TRUE(range_name(api, counter_data_view{}, 2, name).ok());
  EXPECT_EQ(name, "kernel/inner");  // the malloc'd original is freed (ASan would say)
  EXPECT_EQ(api.named_range, 2U);
  EXPECT_EQ(api.delimiter, "/");
  api.range_name_result = CUPTI_ERROR_INVALID_PARAMETER;
  EXPECT_FALSE(range_name(api, counter_data_view{}, 9, name, "::").ok());
  EXPECT_TRUE(name.empty());
  EXPECT_EQ(api.delimiter, "::");
}

class cupti_evaluation : public test::real_profiler_host_test {};

TEST_F(cupti_evaluation, refuses_an_empty_counter_data_image) {
  metric_config config;
  ASSERT_TRUE(build_metric_config(*api,
                                  host_target{"GH100", CUPTI_PROFILER_TYPE_RANGE_PROFILER, {}},
                                  {"smsp__warps_launched.sum"}, config)
                  .ok());
  std::vector<double> values;
  EXPECT_FALSE(evaluate_range(*api, config, counter_data_view{}, 0, values).ok());
  std::string name;
  EXPECT_FALSE(range_name(*api, counter_data_view{}, 0, name).ok());
}

}  // namespace
}  // namespace rocprof::cuda
