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
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rocprof/trace/model.hpp"

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

  // <dir>/<prefix>_<name>.<ext>
  std::string path_for(const std::string& name, const std::string& ext) const;
};

class writer {
 public:
  virtual ~writer() = default;

  virtual void begin(const trace_definitions& defs) = 0;

  virtual void write(record_span<api_record>) {}
  virtual void write(record_span<kernel_dispatch_record>) {}
  virtual void write(record_span<memory_copy_record>) {}
  virtual void write(record_span<memory_set_record>) {}
  virtual void write(record_span<memory_allocation_record>) {}
  virtual void write(record_span<scratch_memory_record>) {}
  virtual void write(record_span<counter_value_record>) {}
  virtual void write(record_span<device_counter_sample_record>) {}
  virtual void write(record_span<pc_sample_record>) {}

  // Returns an empty string on success, else a one-line description of what failed.
  virtual std::string finish() = 0;
};

}  // namespace rocprof::trace
