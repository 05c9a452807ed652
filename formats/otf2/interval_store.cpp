#include "otf2/interval_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <queue>
#include <utility>

namespace rocprof::trace::otf2 {

namespace {
constexpr size_t max_read_batch = 4096;  // intervals read per run at a time (96 KiB) at most
constexpr size_t min_read_batch = 256;   // and at least (6 KiB), however many runs there are
constexpr size_t min_growth = 1024;      // intervals a location's vector grows by at least

bool write_all(int fd, const void* data, size_t bytes, uint64_t offset) {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::pwrite(fd, p, bytes, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    bytes -= static_cast<size_t>(n);
    offset += static_cast<uint64_t>(n);
  }
  return true;
}

bool read_all(int fd, void* data, size_t bytes, uint64_t offset) {
  auto* p = static_cast<char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::pread(fd, p, bytes, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    bytes -= static_cast<size_t>(n);
    offset += static_cast<uint64_t>(n);
  }
  return true;
}
}  // namespace

interval_store::interval_store(size_t memory_budget_bytes, std::string spill_directory)
    : budget_records_(std::max<size_t>(memory_budget_bytes / sizeof(interval), 1)),
      directory_(std::move(spill_directory)) {}

interval_store::~interval_store() {
  if (spill_fd_ >= 0) ::close(spill_fd_);
}

void interval_store::grow(size_t n) {
  memory_.resize(n);
  runs_.resize(n);
}

void interval_store::reserve_more(size_t location) {
  auto& v = memory_[location];
  size_t step = std::max(v.capacity(), min_growth);  // doubling, as push_back would
  if (reserved_ + step > budget_records_ && in_memory_ > 0) {
    spill();
    if (v.size() < v.capacity()) return;  // the capacity it kept from this round suffices
  }
  // Never past the budget, except by one minimal step for a location that has nothing yet.
  const size_t room = budget_records_ > reserved_ ? budget_records_ - reserved_ : 0;
  step = std::min(step, std::max(room, std::min(min_growth, budget_records_)));
  const size_t before = v.capacity();
  v.reserve(before + step);
  reserved_ += v.capacity() - before;
}

void interval_store::spill() {
  in_memory_ = 0;
  if (!error_.empty()) {
    // Spilling failed before: keep going in memory rather than lose records.
    budget_records_ = ~size_t{0};
    return;
  }
  if (spill_fd_ < 0) {
    std::string path =
        (directory_.empty() ? std::string(".") : directory_) + "/.rocprof-otf2-spill-XXXXXX";
    spill_fd_ = ::mkstemp(path.data());
    if (spill_fd_ < 0) {
      error_ = "cannot create a spill file in " + directory_ + ": " + std::strerror(errno);
      budget_records_ = ~size_t{0};
      return;
    }
    ::unlink(path.c_str());
  }
  ++spills_;
  for (size_t loc = 0; loc < memory_.size(); ++loc) {
    auto& v = memory_[loc];
    if (v.empty()) continue;
    std::sort(v.begin(), v.end(), interval_before);
    if (!write_all(spill_fd_, v.data(), v.size() * sizeof(interval), spilled_ * sizeof(interval))) {
      error_ = std::string("writing the spill file failed: ") + std::strerror(errno);
      budget_records_ = ~size_t{0};
      in_memory_ = 0;
      for (const auto& m : memory_)
        in_memory_ += m.size();
      return;
    }
    runs_[loc].push_back({spilled_, v.size()});
    spilled_ += v.size();
  }
  // Each location keeps the capacity it used in this round (the next round of a steady mix fits
  // without reallocating); capacity it did not use goes back to the budget.
  reserved_ = 0;
  for (auto& v : memory_) {
    const size_t used = v.size();
    v.clear();
    if (v.capacity() > used) {
      v.shrink_to_fit();
      v.reserve(used);
    }
    reserved_ += v.capacity();
  }
}

bool interval_store::drain_sorted(size_t location,
                                  const std::function<bool(const interval&)>& visit) {
  if (location >= memory_.size()) return true;
  auto& rest = memory_[location];
  std::sort(rest.begin(), rest.end(), interval_before);
  auto& runs = runs_[location];

  if (runs.empty()) {
    for (const interval& iv : rest)
      if (!visit(iv)) return false;
  } else {
    // K-way merge of the spilled runs and the in-memory rest (the last source).
    struct source {
      std::vector<interval> buffer;
      size_t pos = 0;
      uint64_t next = 0, left = 0;  // for runs: next file index to read, intervals left
    };
    std::vector<source> sources(runs.size() + 1);
    // All read buffers together within half the budget: many runs read in smaller batches.
    const size_t read_batch =
        std::clamp<size_t>(budget_records_ / 2 / runs.size(), min_read_batch, max_read_batch);
    const auto refill = [&](source& s) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(s.left, read_batch));
      s.buffer.resize(n);
      s.pos = 0;
      if (n == 0) return true;
      if (!read_all(spill_fd_, s.buffer.data(), n * sizeof(interval), s.next * sizeof(interval)))
        return false;
      s.next += n;
      s.left -= n;
      return true;
    };
    for (size_t i = 0; i < runs.size(); ++i) {
      sources[i].next = runs[i].first;
      sources[i].left = runs[i].count;
      if (!refill(sources[i])) {
        error_ = std::string("reading the spill file failed: ") + std::strerror(errno);
        return false;
      }
    }
    sources.back().buffer = std::move(rest);
    const auto later = [&](size_t a, size_t b) {
      return interval_before(sources[b].buffer[sources[b].pos], sources[a].buffer[sources[a].pos]);
    };
    std::priority_queue<size_t, std::vector<size_t>, decltype(later)> heap(later);
    for (size_t i = 0; i < sources.size(); ++i)
      if (!sources[i].buffer.empty()) heap.push(i);
    while (!heap.empty()) {
      const size_t i = heap.top();
      heap.pop();
      source& s = sources[i];
      if (!visit(s.buffer[s.pos])) return false;
      if (++s.pos == s.buffer.size()) {
        if (i + 1 == sources.size() || s.left == 0) continue;  // exhausted
        if (!refill(s)) {
          error_ = std::string("reading the spill file failed: ") + std::strerror(errno);
          return false;
        }
      }
      heap.push(i);
    }
    rest = std::move(sources.back().buffer);
  }
  reserved_ -= std::min(reserved_, rest.capacity());
  std::vector<interval>().swap(rest);
  std::vector<run>().swap(runs);
  return true;
}

}  // namespace rocprof::trace::otf2
