// The bookkeeping of batched collection: the i-th range of a Stop belongs to the i-th counted
// launch of the batch; a launch the driver refused takes no range; a Stop whose ranges do not
// match the batch one for one gives no values to anyone (never another kernel's).
#include <gtest/gtest.h>

#include "counters/dispatch_batch.hpp"

namespace rocprof::cuda {
namespace {

rocprof_counted_dispatch_t dispatch(uint64_t id) {
  rocprof_counted_dispatch_t d{};
  d.config = 1;
  d.dispatch_info.dispatch_id = id;
  return d;
}

std::vector<std::vector<double>> ranges(size_t n) {
  std::vector<std::vector<double>> out;
  for (size_t i = 0; i < n; ++i)
    out.push_back({static_cast<double>(i), static_cast<double>(10 * i)});
  return out;
}

void launch(dispatch_batch& b, uint64_t id, bool ok, std::vector<finished_dispatch>& ready) {
  b.push(dispatch(id), 100 * id);
  b.returned(ok, 100 * id + 5, ready);
}

TEST(dispatch_batch, each_dispatch_gets_the_range_of_its_launch_order) {
  dispatch_batch b;
  std::vector<finished_dispatch> ready;
  for (uint64_t id : {7, 8, 9})
    launch(b, id, true, ready);
  EXPECT_TRUE(ready.empty());
  EXPECT_EQ(b.size(), 3u);
  std::string why;
  b.resolve(true, ranges(3), ready, why);
  EXPECT_TRUE(why.empty());
  EXPECT_TRUE(b.empty());
  ASSERT_EQ(ready.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(ready[i].counted.dispatch_info.dispatch_id, 7 + i);
    EXPECT_EQ(ready[i].values, (std::vector<double>{1.0 * i, 10.0 * i}));
    EXPECT_EQ(ready[i].start_ns, 100 * (7 + i));
    EXPECT_EQ(ready[i].end_ns, 100 * (7 + i) + 5);
  }
}

TEST(dispatch_batch, a_refused_launch_takes_no_range) {
  dispatch_batch b;
  std::vector<finished_dispatch> ready;
  launch(b, 1, true, ready);
  launch(b, 2, false, ready);  // the driver refused it: finished at once, without values
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0].counted.dispatch_info.dispatch_id, 2u);
  EXPECT_TRUE(ready[0].values.empty());
  launch(b, 3, true, ready);
  std::string why;
  b.resolve(true, ranges(2), ready, why);
  ASSERT_EQ(ready.size(), 3u);
  EXPECT_EQ(ready[1].counted.dispatch_info.dispatch_id, 1u);
  EXPECT_EQ(ready[1].values[0], 0.0);
  EXPECT_EQ(ready[2].counted.dispatch_info.dispatch_id, 3u);
  EXPECT_EQ(ready[2].values[0], 1.0);
}

TEST(dispatch_batch, ranges_that_do_not_match_the_batch_give_no_values) {
  dispatch_batch b;
  std::vector<finished_dispatch> ready;
  launch(b, 1, true, ready);
  launch(b, 2, true, ready);
  std::string why;
  b.resolve(true, ranges(3), ready, why);  // a kernel we did not count took a range
  EXPECT_NE(why.find("2 counted launches gave 3 ranges"), std::string::npos) << why;
  ASSERT_EQ(ready.size(), 2u);
  EXPECT_TRUE(ready[0].values.empty());
  EXPECT_TRUE(ready[1].values.empty());
  EXPECT_TRUE(b.empty());
}

TEST(dispatch_batch, a_failed_stop_gives_no_values) {
  dispatch_batch b;
  std::vector<finished_dispatch> ready;
  launch(b, 1, true, ready);
  std::string why;
  b.resolve(false, {}, ready, why);
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_TRUE(ready[0].values.empty());
  EXPECT_TRUE(why.empty());  // the caller reports the CUPTI failure
}

}  // namespace
}  // namespace rocprof::cuda
