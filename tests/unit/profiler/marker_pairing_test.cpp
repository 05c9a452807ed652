// Marker records as rocprofv3 expects them (facts §9): push/pop pairs, start/stop pairs that
// end on another thread, marks, nesting, NVTX domains, control and naming calls.
#include <gtest/gtest.h>
#include <rocprofiler-sdk-roctx/roctx.h>
#include <rocprofiler-sdk/backend/markers.h>

#include <thread>

#include "test_tool.hpp"

namespace rocprof::test {
namespace {

constexpr auto range_kind = ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API;

std::vector<marker_copy> ranges_after_flush() {
  EXPECT_EQ(rocprofiler_flush_buffer(tool().range_buf), ROCPROFILER_STATUS_SUCCESS);
  return tool().range.of_kind(range_kind);
}

TEST(marker_pairing, nested_thread_ranges_give_levels_and_one_record_per_pair) {
  reset(tool().range_buf, tool().range);
  {
    context_guard on(tool().range_ctx);
    EXPECT_EQ(roctxRangePushA("outer"), 0);
    EXPECT_EQ(roctxRangePushA("middle"), 1);
    EXPECT_EQ(roctxRangePushA("inner"), 2);
    EXPECT_EQ(roctxRangePop(), 2);
    EXPECT_EQ(roctxRangePop(), 1);
    EXPECT_EQ(roctxRangePop(), 0);
    EXPECT_EQ(roctxRangePop(), -1);  // nothing left to pop
  }
  const auto recs = ranges_after_flush();
  ASSERT_EQ(recs.size(), 3u);
  // Delivered in completion order: inner, middle, outer.
  EXPECT_EQ(recs[0].message, "inner");
  EXPECT_EQ(recs[1].message, "middle");
  EXPECT_EQ(recs[2].message, "outer");
  for (const auto& r : recs) {
    EXPECT_EQ(r.record.operation, ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA);
    EXPECT_EQ(r.record.thread_id, os_tid());
    EXPECT_EQ(r.record.end_thread_id, os_tid());
    EXPECT_LE(r.record.start_timestamp, r.record.end_timestamp);
    EXPECT_EQ(r.record.size, sizeof(rocprofiler_buffer_tracing_marker_api_record_t));
    EXPECT_EQ(r.domain, "");
  }
  // Nesting: each inner range lies within its parent.
  EXPECT_GE(recs[0].record.start_timestamp, recs[1].record.start_timestamp);
  EXPECT_LE(recs[0].record.end_timestamp, recs[1].record.end_timestamp);
  EXPECT_GE(recs[1].record.start_timestamp, recs[2].record.start_timestamp);
  EXPECT_LE(recs[1].record.end_timestamp, recs[2].record.end_timestamp);
  // Correlation ids are taken at the push: outer < middle < inner.
  EXPECT_LT(recs[2].record.correlation_id.internal, recs[1].record.correlation_id.internal);
  EXPECT_LT(recs[1].record.correlation_id.internal, recs[0].record.correlation_id.internal);
}

TEST(marker_pairing, process_range_ends_on_another_thread) {
  reset(tool().range_buf, tool().range);
  roctx_range_id_t id = 0;
  uint64_t starter = 0, stopper = 0;
  {
    context_guard on(tool().range_ctx);
    std::thread a([&] {
      starter = os_tid();
      id = roctxRangeStartA("cross-thread");
    });
    a.join();
    std::thread b([&] {
      stopper = os_tid();
      roctxRangeStop(id);
    });
    b.join();
    roctxRangeStop(id);  // already ended: ignored
  }
  EXPECT_GT(id, 0u);
  const auto recs = ranges_after_flush();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].record.operation, ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA);
  EXPECT_EQ(recs[0].message, "cross-thread");
  EXPECT_EQ(recs[0].record.thread_id, starter);
  EXPECT_EQ(recs[0].record.end_thread_id, stopper);
  EXPECT_EQ(recs[0].record.range_id, id);
  EXPECT_LE(recs[0].record.start_timestamp, recs[0].record.end_timestamp);
}

TEST(marker_pairing, range_ids_are_unique_and_increasing) {
  context_guard on(tool().range_ctx);
  const roctx_range_id_t a = roctxRangeStartA("a");
  const roctx_range_id_t b = roctxRangeStartA("b");
  EXPECT_GT(a, 0u);
  EXPECT_GT(b, a);
  roctxRangeStop(b);
  roctxRangeStop(a);
}

TEST(marker_pairing, mark_has_equal_start_and_end) {
  reset(tool().range_buf, tool().range);
  {
    context_guard on(tool().range_ctx);
    roctxMarkA("instant");
  }
  const auto recs = ranges_after_flush();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].record.operation, ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxMarkA);
  EXPECT_EQ(recs[0].message, "instant");
  EXPECT_EQ(recs[0].record.start_timestamp, recs[0].record.end_timestamp);
}

TEST(marker_pairing, nvtx_domains_nest_separately_and_keep_their_name) {
  reset(tool().range_buf, tool().range);
  {
    context_guard on(tool().range_ctx);
    EXPECT_EQ(rocprof_marker_push("physics", "step"), 0);
    EXPECT_EQ(roctxRangePushA("roctx-range"), 0);  // a different domain: its own level
    EXPECT_EQ(rocprof_marker_push("physics", "substep"), 1);
    EXPECT_EQ(rocprof_marker_pop("physics"), 1);
    EXPECT_EQ(roctxRangePop(), 0);
    EXPECT_EQ(rocprof_marker_pop("physics"), 0);
    EXPECT_EQ(rocprof_marker_pop("physics"), -1);
  }
  const auto recs = ranges_after_flush();
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].message, "substep");
  EXPECT_EQ(recs[0].domain, "physics");
  EXPECT_EQ(recs[1].message, "roctx-range");
  EXPECT_EQ(recs[1].domain, "");
  EXPECT_EQ(recs[2].message, "step");
  EXPECT_EQ(recs[2].domain, "physics");
}

TEST(marker_pairing, messages_from_a_reused_buffer_stay_distinct) {
  reset(tool().range_buf, tool().range);
  {
    context_guard on(tool().range_ctx);
    char text[16];
    for (int i = 0; i < 3; ++i) {
      std::snprintf(text, sizeof(text), "iteration %d", i);
      roctxMarkA(text);
    }
  }
  const auto recs = ranges_after_flush();
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].message, "iteration 0");
  EXPECT_EQ(recs[1].message, "iteration 1");
  EXPECT_EQ(recs[2].message, "iteration 2");
}

TEST(marker_pairing, raw_core_api_control_and_name_records) {
  reset(tool().range_buf, tool().range);
  {
    context_guard on(tool().range_ctx);
    roctxRangePushA("p");
    roctxRangePop();
    EXPECT_EQ(roctxProfilerPause(0), 0);
    EXPECT_EQ(roctxProfilerResume(0), 0);
    EXPECT_EQ(roctxNameOsThread("worker-main"), 0);
    EXPECT_EQ(roctxNameHipDevice("gpu0", 3), 0);
  }
  ASSERT_EQ(rocprofiler_flush_buffer(tool().range_buf), ROCPROFILER_STATUS_SUCCESS);
  const auto core = tool().range.of_kind(ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API);
  ASSERT_EQ(core.size(), 2u);
  EXPECT_EQ(core[0].record.operation, ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA);
  EXPECT_EQ(core[0].message, "p");
  EXPECT_EQ(core[1].record.operation, ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop);
  const auto control = tool().range.of_kind(ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API);
  ASSERT_EQ(control.size(), 2u);
  EXPECT_EQ(control[0].record.operation, ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause);
  EXPECT_EQ(control[1].record.operation, ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume);
  const auto names = tool().range.of_kind(ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API);
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0].record.operation, ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread);
  EXPECT_EQ(names[0].message, "worker-main");
  EXPECT_EQ(names[0].record.thread_id, os_tid());
  EXPECT_EQ(names[1].record.operation, ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipDevice);
  EXPECT_EQ(names[1].message, "gpu0");
  EXPECT_EQ(names[1].record.range_id, 3u);
}

TEST(marker_pairing, nothing_is_recorded_while_no_context_is_active) {
  reset(tool().range_buf, tool().range);
  EXPECT_EQ(roctxRangePushA("unseen"), 0);
  roctxMarkA("unseen");
  EXPECT_EQ(roctxRangePop(), 0);
  {
    context_guard on(tool().range_ctx);
    // A range pushed while untraced is not reported when popped while traced.
    EXPECT_EQ(roctxRangePushA("before"), 0);
  }
  {
    context_guard on(tool().range_ctx);
    EXPECT_EQ(roctxRangePop(), 0);
  }
  const auto recs = ranges_after_flush();
  ASSERT_EQ(recs.size(), 1u);  // the range pushed while the context was on
  EXPECT_EQ(recs[0].message, "before");
}

TEST(marker_pairing, thread_id_matches_the_os) {
  roctx_thread_id_t tid = 0;
  EXPECT_EQ(roctxGetThreadId(&tid), 0);
  EXPECT_EQ(tid, os_tid());
  rocprofiler_thread_id_t core_tid = 0;
  EXPECT_EQ(rocprofiler_get_thread_id(&core_tid), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(core_tid, os_tid());
}

}  // namespace
}  // namespace rocprof::test
