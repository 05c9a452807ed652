// Lane placement: disjoint and nested slices share a lane, partial overlaps never do.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "perfetto/track_lanes.hpp"

namespace {

using rocprof::trace::perfetto::track_lanes;

TEST(TrackLanes, DisjointSlicesShareOneLane) {
  track_lanes lanes;
  EXPECT_EQ(lanes.place(0, 10), 0u);
  EXPECT_EQ(lanes.place(10, 20), 0u);  // touching is not overlapping
  EXPECT_EQ(lanes.place(30, 40), 0u);
  EXPECT_EQ(lanes.size(), 1u);
}

TEST(TrackLanes, OverlapOpensALane) {
  track_lanes lanes;
  EXPECT_EQ(lanes.place(0, 10), 0u);
  EXPECT_EQ(lanes.place(5, 15), 1u);
  EXPECT_EQ(lanes.place(12, 20), 0u);  // fits lane 0 again
  // Inside the latest group of both lanes, where it could cross an inner slice: a third lane.
  EXPECT_EQ(lanes.place(13, 14), 2u);
  EXPECT_EQ(lanes.place(21, 22), 0u);
  EXPECT_EQ(lanes.size(), 3u);
}

TEST(TrackLanes, EnclosingRangeArrivingLastNests) {
  track_lanes lanes;
  // API calls end (and arrive) before the marker range that encloses them.
  EXPECT_EQ(lanes.place(10, 20), 0u);
  EXPECT_EQ(lanes.place(25, 30), 0u);
  EXPECT_EQ(lanes.place(5, 40), 1u);  // encloses 25-30 but also crosses into 10-20's group
  EXPECT_EQ(lanes.place(50, 60), 0u);
  EXPECT_EQ(lanes.place(45, 70), 0u);  // encloses the latest group only: nests
  EXPECT_EQ(lanes.place(44, 80), 0u);
}

// Property: within every lane, any two slices are disjoint or nested.
TEST(TrackLanes, RandomSlicesNeverCrossWithinALane) {
  std::mt19937_64 rng(42);
  track_lanes lanes;
  struct slice {
    uint64_t start, end;
    size_t lane;
  };
  std::vector<slice> placed;
  for (int i = 0; i < 3000; ++i) {
    const uint64_t start = rng() % 100000;
    const uint64_t end = start + rng() % 300;
    placed.push_back({start, end, lanes.place(start, end)});
  }
  for (size_t i = 0; i < placed.size(); ++i)
    for (size_t j = i + 1; j < placed.size(); ++j) {
      const slice& a = placed[i];
      const slice& b = placed[j];
      if (a.lane != b.lane) continue;
      const bool disjoint = a.end <= b.start || b.end <= a.start;
      const bool nested =
          (a.start <= b.start && b.end <= a.end) || (b.start <= a.start && a.end <= b.end);
      ASSERT_TRUE(disjoint || nested)
          << a.start << "-" << a.end << " vs " << b.start << "-" << b.end << " on lane " << a.lane;
    }
}

}  // namespace
