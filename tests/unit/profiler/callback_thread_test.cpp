// Delivery threads: buffers deliver on their assigned thread, never on the recording thread;
// a flush from inside the buffer's own callback is refused.
#include <gtest/gtest.h>
#include <rocprofiler-sdk-roctx/roctx.h>

#include <set>

#include "test_tool.hpp"

namespace rocprof::test {
namespace {

TEST(callback_thread, dedicated_thread_delivers_and_is_not_the_default_one) {
  // Default thread: observed through the range buffer.
  reset(tool().range_buf, tool().range);
  {
    context_guard on(tool().range_ctx);
    roctxMarkA("default");
  }
  ASSERT_EQ(rocprofiler_flush_buffer(tool().range_buf), ROCPROFILER_STATUS_SUCCESS);
  uint64_t default_tid = 0;
  {
    std::lock_guard<std::mutex> lock(tool().range.mutex);
    ASSERT_FALSE(tool().range.delivery_tids.empty());
    default_tid = tool().range.delivery_tids.back();
  }
  collector& c = tool().thread;
  reset(tool().thread_buf, c);
  {
    context_guard on(tool().thread_ctx);
    for (int i = 0; i < 10; ++i)
      roctxMarkA("dedicated");
  }
  ASSERT_EQ(rocprofiler_flush_buffer(tool().thread_buf), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(c.mutex);
  EXPECT_EQ(c.markers.size(), 10u);
  ASSERT_FALSE(c.delivery_tids.empty());
  const std::set<uint64_t> tids(c.delivery_tids.begin(), c.delivery_tids.end());
  EXPECT_EQ(tids.size(), 1u) << "one delivery thread per buffer";
  EXPECT_NE(*tids.begin(), default_tid);
  EXPECT_NE(*tids.begin(), os_tid());
  EXPECT_NE(default_tid, os_tid());
}

TEST(callback_thread, flush_from_own_callback_is_busy) {
  collector& c = tool().thread;
  reset(tool().thread_buf, c);
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    c.try_flush_inside = true;
  }
  {
    context_guard on(tool().thread_ctx);
    roctxMarkA("busy");
  }
  ASSERT_EQ(rocprofiler_flush_buffer(tool().thread_buf), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(c.mutex);
  c.try_flush_inside = false;
  EXPECT_EQ(c.flush_from_callback, ROCPROFILER_STATUS_ERROR_BUFFER_BUSY);
}

TEST(callback_thread, creation_is_locked_after_initialization) {
  rocprofiler_callback_thread_t t{};
  EXPECT_EQ(rocprofiler_create_callback_thread(&t), ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
  EXPECT_EQ(rocprofiler_assign_callback_thread(tool().range_buf, tool().dedicated_thread),
            ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

}  // namespace
}  // namespace rocprof::test
