// nested_driver_filter: which driver calls, seen only through their API activity records, a
// runtime call made. Records come in completion order per thread (a runtime call's own driver
// calls before it); the filter holds driver records until the next runtime record of their
// thread.
#include <gtest/gtest.h>

#include "nested_api_records.hpp"

namespace rocprof::cuda {
namespace {

api_call call(api_domain d, uint32_t cupti_id, int64_t tid, uint64_t start, uint64_t end) {
  api_call c;
  c.domain = d;
  c.cbid = 7;
  c.cupti_id = cupti_id;
  c.tid = tid;
  c.start_ns = start;
  c.end_ns = end;
  return c;
}
api_call drv(uint32_t id, int64_t tid, uint64_t start, uint64_t end) {
  return call(api_domain::driver, id, tid, start, end);
}
api_call rt(uint32_t id, int64_t tid, uint64_t start, uint64_t end) {
  return call(api_domain::runtime, id, tid, start, end);
}

TEST(nested_driver_filter, a_runtime_call_settles_its_threads_driver_calls_by_their_times) {
  nested_driver_filter f;
  std::vector<settled_call> out;
  f.hold(drv(1, 10, 100, 110), out);  // the application's own call, before the runtime call
  f.hold(drv(3, 10, 210, 220), out);  // inside the runtime call [200, 300]
  f.hold(drv(4, 10, 200, 300), out);  // same bounds: still inside
  f.hold(drv(5, 11, 210, 220), out);  // another thread: not this runtime call's
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(f.held(), 4U);
  f.runtime_call(rt(2, 10, 200, 300), out);
  ASSERT_EQ(out.size(), 3U);
  EXPECT_EQ(out[0].call.cupti_id, 1U);
  EXPECT_FALSE(out[0].nested);
  EXPECT_EQ(out[1].call.cupti_id, 3U);
  EXPECT_TRUE(out[1].nested);
  EXPECT_EQ(out[2].call.cupti_id, 4U);
  EXPECT_TRUE(out[2].nested);
  EXPECT_EQ(f.held(), 1U);
  out.clear();
  // A runtime call of a thread holding nothing settles nothing.
  f.runtime_call(rt(6, 12, 0, 1000), out);
  EXPECT_TRUE(out.empty());
}

TEST(nested_driver_filter, the_final_release_settles_the_rest_as_not_nested) {
  nested_driver_filter f;
  std::vector<settled_call> out;
  f.hold(drv(1, 10, 100, 110), out);
  f.hold(drv(2, 11, 100, 110), out);
  f.release_all(out);
  ASSERT_EQ(out.size(), 2U);
  EXPECT_FALSE(out[0].nested);
  EXPECT_FALSE(out[1].nested);
  EXPECT_EQ(f.held(), 0U);
}

TEST(nested_driver_filter, memory_is_bounded_per_thread_the_oldest_leaving_first) {
  nested_driver_filter f{2};
  std::vector<settled_call> out;
  f.hold(drv(1, 10, 1, 2), out);
  f.hold(drv(2, 10, 3, 4), out);
  EXPECT_TRUE(out.empty());
  f.hold(drv(3, 10, 5, 6), out);
  ASSERT_EQ(out.size(), 1U);
  EXPECT_EQ(out[0].call.cupti_id, 1U);
  EXPECT_FALSE(out[0].nested);
  EXPECT_EQ(f.held(), 2U);
}

}  // namespace
}  // namespace rocprof::cuda
