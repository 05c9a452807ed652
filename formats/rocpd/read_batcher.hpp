// What the rocpd reader's record passes share (rocpd_read_records.cpp,
// rocpd_read_device_samples.cpp): batches of one record kind handed to every writer, and the
// time window test.
#pragma once

#include <cstdint>
#include <vector>

#include "rocprof/formats/rocpd_reader.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::formats::rocpd {

// Records of one kind gathered until a batch is full, then handed to every writer.
template <typename T>
class batcher {
 public:
  batcher(const std::vector<trace::writer*>& out, const read_options& options, uint64_t& total)
      : out_{out}, options_{options}, total_{total} {
    records_.reserve(options.batch_size);
  }
  ~batcher() { flush(); }
  T& add() { return records_.emplace_back(); }
  void drop_last() { records_.pop_back(); }
  void commit() {
    if (records_.size() >= options_.batch_size) flush();
  }
  void flush() {
    if (records_.empty()) return;
    for (auto* w : out_)
      w->write(trace::make_span(records_));
    total_ += records_.size();
    records_.clear();
    if (options_.progress) options_.progress(total_);
  }

 private:
  const std::vector<trace::writer*>& out_;
  const read_options& options_;
  uint64_t& total_;
  std::vector<T> records_;
};

inline bool in_window(const time_window& w, uint64_t start, uint64_t end) {
  if (!w.active()) return true;
  return w.inclusive ? start >= w.begin && end <= w.end : start <= w.end && end >= w.begin;
}

}  // namespace rocprof::formats::rocpd
