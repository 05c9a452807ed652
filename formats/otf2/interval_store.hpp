// Per-location intervals for the OTF2 writer, in bounded memory.
//
// OTF2 needs each location's events in time order, records arrive in recording order. Intervals
// are kept in memory up to a budget (of reserved capacity); past it, every location's intervals
// are sorted and appended to a spill file in the output directory as one run per location, and
// memory is reused: each location keeps the capacity it used in the last round, so a steady mix
// reallocates nothing. At the end each location is read back as a k-way merge of its runs and its
// in-memory rest, with read buffers that together stay within half the budget. The spill file is
// unlinked as soon as it is created, so nothing is left behind if the process dies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace rocprof::trace::otf2 {

struct interval {
  uint64_t start = 0, end = 0;
  uint32_t region = 0;
  uint32_t category = 0;  // string ref of the category name, the value of the `category` attribute
};
static_assert(sizeof(interval) == 24, "intervals are kept per record: keep them small");

// The order events are written in: by start, and the longer (enclosing) interval first.
inline bool interval_before(const interval& a, const interval& b) {
  return a.start != b.start ? a.start < b.start : a.end > b.end;
}

class interval_store {
 public:
  interval_store(size_t memory_budget_bytes, std::string spill_directory);
  ~interval_store();
  interval_store(const interval_store&) = delete;
  interval_store& operator=(const interval_store&) = delete;

  // location: a dense index 0.. chosen by the caller.
  void add(size_t location, const interval& iv) {
    if (location >= memory_.size()) grow(location + 1);
    auto& v = memory_[location];
    if (v.size() == v.capacity()) reserve_more(location);
    v.push_back(iv);
    if (++in_memory_ >= budget_records_) spill();
  }
  size_t locations() const { return memory_.size(); }
  size_t spilled_runs() const { return spills_; }
  // Memory held for intervals (capacity, not contents): within the budget, but for one minimal
  // growth step (1024 intervals) of a location that had none when the budget was full.
  size_t reserved_bytes() const { return reserved_ * sizeof(interval); }

  // Visits the location's intervals in interval_before order, then frees them. Returns false
  // (and sets error()) if the spill file could not be read, or if visit returned false.
  bool drain_sorted(size_t location, const std::function<bool(const interval&)>& visit);
  const std::string& error() const { return error_; }

 private:
  struct run {
    uint64_t first = 0;  // index of its first interval in the spill file
    uint64_t count = 0;
  };
  void grow(size_t n);
  void reserve_more(size_t location);
  void spill();

  // The budget counts reserved capacity, not stored intervals: vectors grow by doubling, so
  // counting only their contents let capacity (and RSS) reach twice the budget.
  size_t budget_records_;
  size_t reserved_ = 0;  // sum of the capacities of memory_, in intervals
  std::string directory_;
  std::vector<std::vector<interval>> memory_;
  std::vector<std::vector<run>> runs_;
  size_t in_memory_ = 0;
  size_t spills_ = 0;
  int spill_fd_ = -1;
  uint64_t spilled_ = 0;  // intervals in the spill file
  std::string error_;
};

}  // namespace rocprof::trace::otf2
