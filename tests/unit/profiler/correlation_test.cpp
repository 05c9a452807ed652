// Correlation ids: one internal id per call shared by ENTER, EXIT and the buffer record;
// external ids from the per-thread stack; user data kept from ENTER to EXIT.
#include <gtest/gtest.h>
#include <rocprofiler-sdk-roctx/roctx.h>

#include <set>
#include <thread>

#include "test_tool.hpp"

namespace rocprof::test {
namespace {

std::vector<callback_event> take_callbacks() {
  std::lock_guard<std::mutex> lock(tool().callback_mutex);
  std::vector<callback_event> out;
  out.swap(tool().callbacks);
  return out;
}

TEST(correlation, enter_exit_and_record_share_the_push_id) {
  take_callbacks();
  reset(tool().range_buf, tool().range);
  {
    context_guard a(tool().range_ctx);
    context_guard b(tool().callback_ctx);
    roctxRangePushA("corr");
    roctxRangePop();
  }
  ASSERT_EQ(rocprofiler_flush_buffer(tool().range_buf), ROCPROFILER_STATUS_SUCCESS);
  const auto events = take_callbacks();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
  EXPECT_EQ(events[1].phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
  EXPECT_EQ(events[0].operation, ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA);
  EXPECT_EQ(events[0].message, "corr");
  EXPECT_EQ(events[1].message, "corr");
  EXPECT_EQ(events[0].correlation.internal, events[1].correlation.internal);
  EXPECT_EQ(events[0].user_data_at_call, 0u) << "user data starts zeroed";
  EXPECT_EQ(events[1].user_data_at_call, events[0].correlation.internal * 10)
      << "user data set at ENTER comes back at EXIT";
  const auto recs = tool().range.of_kind(ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API);
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].record.correlation_id.internal, events[0].correlation.internal);
}

TEST(correlation, process_range_exit_runs_on_the_stopping_thread) {
  take_callbacks();
  uint64_t stopper = 0;
  {
    context_guard b(tool().callback_ctx);
    const roctx_range_id_t id = roctxRangeStartA("proc");
    std::thread t([&] {
      stopper = os_tid();
      roctxRangeStop(id);
    });
    t.join();
  }
  const auto events = take_callbacks();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].thread_id, os_tid());
  EXPECT_EQ(events[1].thread_id, stopper);
  EXPECT_EQ(events[0].correlation.internal, events[1].correlation.internal);
  EXPECT_EQ(events[1].user_data_at_call, events[0].correlation.internal * 10);
  EXPECT_EQ(events[1].message, "proc");
}

TEST(correlation, internal_ids_are_unique_across_threads) {
  reset(tool().range_buf, tool().range);
  {
    context_guard a(tool().range_ctx);
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i)
      threads.emplace_back([] {
        for (int j = 0; j < 100; ++j)
          roctxMarkA("m");
      });
    for (auto& t : threads)
      t.join();
  }
  ASSERT_EQ(rocprofiler_flush_buffer(tool().range_buf), ROCPROFILER_STATUS_SUCCESS);
  const auto recs = tool().range.of_kind(ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API);
  ASSERT_EQ(recs.size(), 400u);
  std::set<uint64_t> ids;
  for (const auto& r : recs)
    ids.insert(r.record.correlation_id.internal);
  EXPECT_EQ(ids.size(), 400u) << "every call has its own id";
}

TEST(correlation, external_ids_follow_the_thread_stack) {
  rocprofiler_thread_id_t tid = 0;
  ASSERT_EQ(rocprofiler_get_thread_id(&tid), ROCPROFILER_STATUS_SUCCESS);
  reset(tool().range_buf, tool().range);
  {
    context_guard a(tool().range_ctx);
    ASSERT_EQ(
        rocprofiler_push_external_correlation_id(tool().range_ctx, tid, rocprofiler_user_data_t{7}),
        ROCPROFILER_STATUS_SUCCESS);
    roctxMarkA("seven");
    ASSERT_EQ(
        rocprofiler_push_external_correlation_id(tool().range_ctx, tid, rocprofiler_user_data_t{8}),
        ROCPROFILER_STATUS_SUCCESS);
    // Another context's stack does not leak into this one.
    ASSERT_EQ(rocprofiler_push_external_correlation_id(tool().filter_ctx, tid,
                                                       rocprofiler_user_data_t{99}),
              ROCPROFILER_STATUS_SUCCESS);
    roctxMarkA("eight");
    rocprofiler_user_data_t popped{};
    EXPECT_EQ(rocprofiler_pop_external_correlation_id(tool().filter_ctx, tid, &popped),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(popped.value, 99u);
    EXPECT_EQ(rocprofiler_pop_external_correlation_id(tool().range_ctx, tid, &popped),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(popped.value, 8u);
    EXPECT_EQ(rocprofiler_pop_external_correlation_id(tool().range_ctx, tid, &popped),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(popped.value, 7u);
    roctxMarkA("none");
    EXPECT_EQ(rocprofiler_pop_external_correlation_id(tool().range_ctx, tid, &popped),
              ROCPROFILER_STATUS_ERROR);
  }
  ASSERT_EQ(rocprofiler_flush_buffer(tool().range_buf), ROCPROFILER_STATUS_SUCCESS);
  const auto recs = tool().range.of_kind(ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API);
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].record.correlation_id.external.value, 7u);
  EXPECT_EQ(recs[1].record.correlation_id.external.value, 8u);
  EXPECT_EQ(recs[2].record.correlation_id.external.value, 0u);
}

TEST(correlation, another_threads_stack_is_refused) {
  rocprofiler_thread_id_t tid = 0;
  ASSERT_EQ(rocprofiler_get_thread_id(&tid), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_push_external_correlation_id(tool().range_ctx, tid + 1,
                                                     rocprofiler_user_data_t{1}),
            ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND);
  EXPECT_EQ(rocprofiler_push_external_correlation_id(rocprofiler_context_id_t{0}, tid,
                                                     rocprofiler_user_data_t{1}),
            ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
}

}  // namespace
}  // namespace rocprof::test
