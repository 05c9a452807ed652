// Contexts: creation rules, start/stop, validity, the configuration lock, and registration
// through rocprofiler_force_configure.
#include <gtest/gtest.h>

#include "test_tool.hpp"

namespace rocprof::test {
namespace {

TEST(context, tool_was_configured_and_initialised_once) {
  EXPECT_EQ(tool().initialize_calls, 1);
  EXPECT_EQ(tool().configure_version, static_cast<uint32_t>(ROCPROFILER_VERSION));
  EXPECT_EQ(tool().configure_priority, 0u);
  int status = 0;
  EXPECT_EQ(rocprofiler_is_initialized(&status), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(status, 1);
  EXPECT_EQ(rocprofiler_is_finalized(&status), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(rocprofiler_force_configure(nullptr), ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

TEST(context, rules_checked_during_initialisation) {
  EXPECT_EQ(tool().second_configure_status, ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
  EXPECT_EQ(tool().nonzero_context_status, ROCPROFILER_STATUS_ERROR_CONTEXT_ID_NOT_ZERO);
}

TEST(context, start_stop_and_queries) {
  int active = -1, valid = -1;
  ASSERT_EQ(rocprofiler_context_is_valid(tool().filter_ctx, &valid), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(valid, 1);
  ASSERT_EQ(rocprofiler_context_is_active(tool().filter_ctx, &active), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(active, 0);
  ASSERT_EQ(rocprofiler_start_context(tool().filter_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_context(tool().filter_ctx),
            ROCPROFILER_STATUS_SUCCESS);  // idempotent
  ASSERT_EQ(rocprofiler_context_is_active(tool().filter_ctx, &active), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(active, 1);
  ASSERT_EQ(rocprofiler_stop_context(tool().filter_ctx), ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_context_is_active(tool().filter_ctx, &active), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(active, 0);
}

TEST(context, unknown_contexts_are_reported) {
  int status = -1;
  EXPECT_EQ(rocprofiler_start_context(rocprofiler_context_id_t{0}),
            ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
  EXPECT_EQ(rocprofiler_stop_context(rocprofiler_context_id_t{12345}),
            ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
  EXPECT_EQ(rocprofiler_context_is_valid(rocprofiler_context_id_t{12345}, &status),
            ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
  EXPECT_EQ(status, 0);
}

TEST(context, creation_is_locked_after_initialisation) {
  rocprofiler_context_id_t ctx{};
  EXPECT_EQ(rocprofiler_create_context(&ctx), ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
  EXPECT_EQ(ctx.handle, 0u);
}

}  // namespace
}  // namespace rocprof::test
