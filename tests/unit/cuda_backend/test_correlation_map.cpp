// The lock-free CUPTI id -> core id table: hits, misses after reuse, and concurrent use.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "correlation_map.hpp"

namespace rocprof::cuda {
namespace {

TEST(correlation_map, put_then_get) {
  correlation_map m{64};
  EXPECT_EQ(m.capacity(), 64U);
  m.put(5, correlation_entry{42, 7, 1234});
  correlation_entry e;
  ASSERT_TRUE(m.get(5, e));
  EXPECT_EQ(e.correlation_id, 42U);
  EXPECT_EQ(e.external_id, 7U);
  EXPECT_EQ(e.tid, 1234);
  EXPECT_FALSE(m.get(6, e));
}

TEST(correlation_map, slot_reused_after_capacity_ids_misses_old_id) {
  correlation_map m{16};
  m.put(3, correlation_entry{1, 0, 1});
  m.put(3 + 16, correlation_entry{2, 0, 2});
  correlation_entry e;
  EXPECT_FALSE(m.get(3, e));
  ASSERT_TRUE(m.get(19, e));
  EXPECT_EQ(e.correlation_id, 2U);
}

TEST(correlation_map, capacity_rounds_up_to_power_of_two) {
  correlation_map m{100};
  EXPECT_EQ(m.capacity(), 128U);
}

TEST(correlation_map, concurrent_writers_and_reader_never_see_torn_entries) {
  correlation_map m{1024};
  constexpr uint32_t per_thread = 20000;
  std::vector<std::thread> writers;
  for (uint32_t t = 0; t < 3; ++t) {
    writers.emplace_back([&m, t] {
      for (uint32_t i = 0; i < per_thread; ++i) {
        const uint32_t id = t * per_thread + i + 1;
        // Every field derives from the id, so a torn read would show a mismatch.
        m.put(id, correlation_entry{uint64_t{id} * 3, uint64_t{id} * 5, int64_t{id} * 7});
      }
    });
  }
  uint64_t hits = 0;
  for (uint32_t round = 0; round < 5; ++round) {
    for (uint32_t id = 1; id <= 3 * per_thread; ++id) {
      correlation_entry e;
      if (m.get(id, e)) {
        ++hits;
        ASSERT_EQ(e.correlation_id, uint64_t{id} * 3);
        ASSERT_EQ(e.external_id, uint64_t{id} * 5);
        ASSERT_EQ(e.tid, int64_t{id} * 7);
      }
    }
  }
  for (auto& w : writers)
    w.join();
  // After the writers finish, the last `capacity` ids of each writer's range are readable.
  correlation_entry e;
  EXPECT_TRUE(m.get(3 * per_thread, e) || m.get(2 * per_thread, e) || m.get(per_thread, e));
  (void)hits;
}

// CUPTI id 0 names no call: nothing is stored under it, nothing resolves through it.
TEST(correlation_map, id_zero_is_never_stored) {
  correlation_map m{64};
  EXPECT_FALSE(m.put(0, correlation_entry{42, 7, 1234}));
  correlation_entry e;
  EXPECT_FALSE(m.get(0, e));
  EXPECT_EQ(m.find(0, e), correlation_map::found::none);
  EXPECT_EQ(m.zero_puts(), 1U);
}

// An id put again for another call (another core id) names neither: it is shared from then on,
// until its slot is reused by a newer id. The same call putting it again (a nested call, the
// counting service adding its dispatch id) keeps it.
TEST(correlation_map, an_id_put_for_a_second_call_becomes_shared) {
  correlation_map m{16};
  EXPECT_TRUE(m.put(7, correlation_entry{1, 0, 10}));
  EXPECT_TRUE(m.put(7, correlation_entry{1, 0, 10, 5}));
  correlation_entry e;
  ASSERT_EQ(m.find(7, e), correlation_map::found::entry);
  EXPECT_EQ(e.dispatch_id, 5U);
  EXPECT_FALSE(m.put(7, correlation_entry{2, 0, 10}));
  EXPECT_EQ(m.find(7, e), correlation_map::found::shared);
  EXPECT_FALSE(m.get(7, e));
  EXPECT_FALSE(m.put(7, correlation_entry{3, 0, 10}));  // stays shared
  EXPECT_EQ(m.find(7, e), correlation_map::found::shared);
  EXPECT_EQ(m.shared_marks(), 1U);
  EXPECT_TRUE(m.put(7 + 16, correlation_entry{4, 0, 10}));  // the slot's next id
  EXPECT_EQ(m.find(7, e), correlation_map::found::none);
  ASSERT_EQ(m.find(7 + 16, e), correlation_map::found::entry);
  EXPECT_EQ(e.correlation_id, 4U);
}

}  // namespace
}  // namespace rocprof::cuda
