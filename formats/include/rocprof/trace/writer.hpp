// One streaming writer interface for every output format.
//
// Call order, all from one thread:
//   begin(definitions)            once; definitions stay alive and unchanged until finish()
//   write(span of records) ...    any number of batches of any kinds, in any interleaving;
//                                 within one kind, batches arrive in the order recorded
//   finish()                      flush and close; returns an error text or empty on success
//
// A writer keeps only what it needs across batches (running aggregates, open files); it never
// needs the whole record set in memory. A new tracing domain is a new api_domain value, not a
// new method. Formats are created by name through make_writer() (writer_registry.hpp).
//
// What a writer does with each record kind is its decision, stated in code: there is one
// write(record_span<T>) per kind of the list in model.hpp, and a writer overrides every one of
// them, either with a body that writes the records or with one that calls ignore_records()
// (say why beside it). A kind it does not override is undecided: the base's write() drops
// the records and notes the kind, and probe_kind_handling() reports it, so the test over every
// registered writer (tests/unit/record_kinds/) fails until the writer decides. It is a test and
// not a compile error on purpose: a new kind must build through every writer (and be dropped by
// those that have not decided yet) so that the list can grow one line at a time.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rocprof/trace/model.hpp"
#include "rocprof/trace/record_kinds.hpp"

namespace rocprof::trace {

// A non-owning view of contiguous records (C++17 has no std::span).
template <typename T>
struct record_span {
  const T* data = nullptr;
  size_t size = 0;
  const T* begin() const { return data; }
  const T* end() const { return data + size; }
  bool empty() const { return size == 0; }
  const T& operator[](size_t i) const { return data[i]; }
};

template <typename T>
record_span<T> make_span(const std::vector<T>& v) {
  return {v.data(), v.size()};
}

enum class agent_index_mode : uint8_t { absolute, relative, type_relative };
enum class summary_unit : uint8_t { sec, msec, usec, nsec };

// What the writers need from the resolved configuration. Paths are already expanded.
struct output_options {
  std::string output_directory;  // e.g. /cwd/host/1234 parent directory
  std::string file_prefix;       // e.g. "host/1234" or "out"; files are <dir>/<prefix>_<name>.<ext>
  agent_index_mode agent_index = agent_index_mode::relative;
  bool group_by_queue = false;
  bool kernel_rename = false;
  bool demangle = true;
  bool truncate = false;
  bool stats = false;  // --stats (CSV stats files)
  bool summary = false, summary_per_domain = false;
  std::vector<std::string> summary_groups;  // full-match regexes
  std::string summary_output = "stderr";    // stdout, stderr or a file name
  summary_unit summary_units = summary_unit::nsec;
  // Perfetto's process track name; empty: the command's file name. `rocpd convert` of merged
  // MPI databases names each rank's process "rank N (host, pid)".
  std::string process_label;

  // <dir>/<prefix>_<name>.<ext>
  std::string path_for(const std::string& name, const std::string& ext) const;
};

// What a writer does with the records of one kind (see the top of this file).
enum class kind_handling : uint8_t { writes, ignores, undecided };

class writer {
 public:
  virtual ~writer() = default;

  virtual void begin(const trace_definitions& defs) = 0;

  // One overload per record kind, generated from the kind list. The base version is the
  // "undecided" one: it drops the records and notes the kind for probe_kind_handling().
  // clang-format off
#define ROCPROF_TRACE_WRITER_WRITE(TYPE, NAME) \
  virtual void write(record_span<TYPE> records) { note(records, kind_handling::undecided); }
  ROCPROF_TRACE_RECORD_KINDS(ROCPROF_TRACE_WRITER_WRITE)
#undef ROCPROF_TRACE_WRITER_WRITE
  // clang-format on

  // Returns an empty string on success, else a one-line description of what failed.
  virtual std::string finish() = 0;

 protected:
  // A writer's override of write() for a kind it deliberately does not write calls this.
  template <typename T>
  void ignore_records(record_span<T> records) {
    note(records, kind_handling::ignores);
  }

 private:
  template <typename T>
  void note(record_span<T>, kind_handling handling) {
    seen_[static_cast<size_t>(record_traits<T>::kind)] = handling;
  }

  friend std::array<kind_handling, record_kind_count> probe_kind_handling(writer& w);
  std::array<kind_handling, record_kind_count> seen_{};  // written by note() only
};

// Hands `w` (between begin() and finish()) an empty batch of every kind and reports, per kind,
// what it did: ignores (its write() called ignore_records()), undecided (it has no write() of
// its own for the kind), else writes.
inline std::array<kind_handling, record_kind_count> probe_kind_handling(writer& w) {
  w.seen_.fill(kind_handling::writes);
  for_each_record_type([&w](auto tag) {
    using T = typename decltype(tag)::type;
    w.write(record_span<T>{});
  });
  return w.seen_;
}

}  // namespace rocprof::trace
