// Contexts: creation rules, start/stop, validity, the configuration lock, and registration
// through rocprofiler_force_configure.
#include <gtest/gtest.h>
#include <rocprofiler-sdk-roctx/roctx.h>

#include <mutex>
#include <string>

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

// One thread keeps a per-kind shortcut to the lane of the one buffer that takes a kind
// (dispatch_inl.hpp, direct_lane). Starting and stopping contexts must redirect its next
// records at once: to both buffers, to the remaining one, to none, and through the operation
// filter of a context that has one.
TEST(context, records_follow_context_changes_on_one_thread) {
  collector& a = tool().watermark;
  collector& b = tool().thread;
  collector& filtered = tool().filter;
  reset(tool().watermark_buf, a);
  reset(tool().thread_buf, b);
  reset(tool().filter_buf, filtered);
  auto marks = [](const char* text, int n) {
    for (int i = 0; i < n; ++i)
      roctxMarkA(text);
  };
  auto count = [](collector& c, rocprofiler_buffer_id_t buffer, const std::string& text) {
    EXPECT_EQ(rocprofiler_flush_buffer(buffer), ROCPROFILER_STATUS_SUCCESS);
    std::lock_guard<std::mutex> lock(c.mutex);
    size_t n = 0;
    for (const marker_copy& m : c.markers)
      n += m.message == text ? 1 : 0;
    return n;
  };
  ASSERT_EQ(rocprofiler_start_context(tool().watermark_ctx), ROCPROFILER_STATUS_SUCCESS);
  marks("only-a", 3);
  ASSERT_EQ(rocprofiler_start_context(tool().thread_ctx), ROCPROFILER_STATUS_SUCCESS);
  marks("a-and-b", 4);
  ASSERT_EQ(rocprofiler_stop_context(tool().watermark_ctx), ROCPROFILER_STATUS_SUCCESS);
  marks("only-b", 5);
  ASSERT_EQ(rocprofiler_stop_context(tool().thread_ctx), ROCPROFILER_STATUS_SUCCESS);
  marks("none", 6);
  {
    context_guard on(tool().filter_ctx);  // marks only: no shortcut, the filter applies
    roctxRangePushA("filtered-range");
    marks("filtered-mark", 2);
    roctxRangePop();
  }
  EXPECT_EQ(count(a, tool().watermark_buf, "only-a"), 3u);
  EXPECT_EQ(count(a, tool().watermark_buf, "a-and-b"), 4u);
  EXPECT_EQ(count(a, tool().watermark_buf, "only-b"), 0u);
  EXPECT_EQ(count(b, tool().thread_buf, "only-a"), 0u);
  EXPECT_EQ(count(b, tool().thread_buf, "a-and-b"), 4u);
  EXPECT_EQ(count(b, tool().thread_buf, "only-b"), 5u);
  EXPECT_EQ(count(a, tool().watermark_buf, "none") + count(b, tool().thread_buf, "none") +
                count(filtered, tool().filter_buf, "none"),
            0u);
  EXPECT_EQ(count(filtered, tool().filter_buf, "filtered-mark"), 2u);
  EXPECT_EQ(count(filtered, tool().filter_buf, "filtered-range"), 0u);
  reset(tool().watermark_buf, a);
  reset(tool().thread_buf, b);
  reset(tool().filter_buf, filtered);
}

}  // namespace
}  // namespace rocprof::test
