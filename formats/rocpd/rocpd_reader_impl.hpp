// The rocpd reader class, shared by its three source files (internal to formats/rocpd):
//   rocpd_reader.cpp              opening, the processes of a database, time span, markers;
//   rocpd_read_definitions.cpp    one process's definition tables -> trace_definitions;
//   rocpd_read_records.cpp        one process's record tables -> writer batches;
//   rocpd_read_device_samples.cpp its device counter samples (called by read_records);
//   rocpd_read_pc_samples.cpp     its PC samples (called by read_records).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "rocprof/formats/rocpd_reader.hpp"

namespace rocprof::formats::rocpd {

class reader_impl final : public database_reader {
 public:
  ~reader_impl() override;
  bool open(const std::string& path, std::string* error);

  const std::vector<process_source>& processes() const override { return processes_; }
  int schema_version() const override { return schema_version_; }
  std::optional<std::pair<uint64_t, uint64_t>> time_span() override;
  std::optional<uint64_t> marker_start(const std::string& name, std::string* error) override;
  uint64_t record_rows(size_t process) override;
  bool read_definitions(size_t process, trace::trace_definitions& defs,
                        std::string* error) override;
  bool read_records(size_t process, const trace::trace_definitions& defs,
                    const read_options& options, const std::vector<trace::writer*>& out,
                    uint64_t* skipped, std::string* error) override;

  // "<table><suffix>" quoted, for one process.
  std::string table(size_t process, std::string_view base) const {
    return "\"" + std::string{base} + suffixes_[process] + "\"";
  }
  bool has_table(size_t process, std::string_view base) const;

 private:
  bool discover(std::string* error);
  bool read_metadata(process_source& p, const std::string& suffix, std::string* error);
  bool read_strings(size_t process, trace::trace_definitions& defs, std::string* error);
  bool read_device_samples(size_t process, const read_options& options,
                           const std::vector<trace::writer*>& out, uint64_t& total,
                           std::string* error);
  bool read_pc_samples(size_t process, const trace::trace_definitions& defs,
                       const read_options& options, const std::vector<trace::writer*>& out,
                       uint64_t& total, std::string* error);

  sqlite3* db_ = nullptr;
  std::string path_;
  int schema_version_ = 0;
  std::vector<process_source> processes_;
  std::vector<std::string> suffixes_;  // "" or "_<uuid>", per process

  // Per process read: agent row -> agent handle, text -> string id (for strings found outside
  // rocpd_string: AMD's marker messages).
  std::unordered_map<int64_t, uint64_t> agent_handles_;
  std::unordered_map<std::string, trace::string_id> string_ids_;
};

}  // namespace rocprof::formats::rocpd
