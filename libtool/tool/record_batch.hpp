// The records converted from one buffer delivery, one vector per record kind of the trace
// model's list, on their way to the spool. Kinds are never named here: a new kind in the list
// gets its vector, its cut and its trip to the spool without an edit. Used by one buffer
// callback thread at a time; not shared.
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "rocprof/trace/record_kinds.hpp"

namespace rocprof::tool {

class record_spool;

class record_batch {
 public:
  template <typename T>
  std::vector<T>& of() {
    return std::get<std::vector<T>>(records_);
  }
  template <typename T>
  const std::vector<T>& of() const {
    return std::get<std::vector<T>>(records_);
  }

  // Removes the records that began before epoch_ns (a forked child's cut: they are the
  // parent's). Kinds whose records carry no time (trace::has_record_time) are kept.
  void drop_before(uint64_t epoch_ns);

  // Appends every kind's records to the spool, kind by kind (empty kinds cost nothing there).
  void append_to(record_spool& spool) const;
  // The same to any sink with a `void append(const T* records, size_t count)` per kind.
  template <typename Sink>
  void append_to_sink(Sink& sink) const {
    std::apply(
        [&sink](const auto&... vectors) { (sink.append(vectors.data(), vectors.size()), ...); },
        records_);
  }

  // Records of every kind held.
  size_t total() const;

 private:
  template <typename T>
  using vector_of = std::vector<T>;
  trace::per_record_type<vector_of> records_;
};

}  // namespace rocprof::tool
