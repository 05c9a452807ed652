// A writer that keeps every record it receives, one vector per kind of the trace model's list
// (kinds appended by a test build included), so that a test compares what came out of a spool
// or a batch with what went in. Header-only: the record-kind extension test compiles it with its
// own list.
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "rocprof/trace/record_kinds.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::test_support {

class record_collector final : public trace::writer {
 public:
  void begin(const trace::trace_definitions&) override {}
  std::string finish() override { return {}; }

  template <typename T>
  const std::vector<T>& of() const {
    return std::get<std::vector<T>>(records_);
  }
  // Batches received of a kind (empty ones included).
  size_t batches(trace::record_kind kind) const { return batches_[static_cast<size_t>(kind)]; }
  // clang-format off
#define ROCPROF_TEST_COLLECT(TYPE, NAME) \
  void write(trace::record_span<trace::TYPE> records) override { keep(records); }
  ROCPROF_TRACE_RECORD_KINDS(ROCPROF_TEST_COLLECT)
#undef ROCPROF_TEST_COLLECT
  // clang-format on

 private:
  template <typename T>
  using vector_of = std::vector<T>;

  template <typename T>
  void keep(trace::record_span<T> records) {
    auto& kept = std::get<std::vector<T>>(records_);
    kept.insert(kept.end(), records.begin(), records.end());
    ++batches_[static_cast<size_t>(trace::record_traits<T>::kind)];
  }

  trace::per_record_type<vector_of> records_;
  std::array<size_t, trace::record_kind_count> batches_{};
};

// Byte-for-byte equality of two record sequences (records are plain structs without operator==;
// the spool copies them as bytes).
template <typename T>
bool same_records(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace rocprof::test_support
