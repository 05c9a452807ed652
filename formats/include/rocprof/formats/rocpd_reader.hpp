// Reads rocpd databases (schema version 3: ours and AMD rocprofv3's) back into the trace model,
// so that `rocpd convert` drives the same writers as a live run.
//
// A database holds one process per uuid-suffixed table set (one for a database written by a
// run, several for a merged one). For each process the reader gives the definitions (small,
// whole) and then streams its records to writers in batches, in the order they were written
// (the event table's order), so memory stays bounded whatever the database's size.
//
// Not thread-safe; one reader per thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rocprof/trace/model.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::formats::rocpd {

// One process of a database: a set of tables `rocpd_<name>_<uuid>`.
struct process_source {
  std::string path;  // the database file
  std::string uuid;  // table suffix without its leading '_'
  std::string guid;
  int64_t pid = 0;
  std::string hostname;
  int64_t mpi_rank = -1, mpi_size = 0;
  int64_t realtime_offset_start_ns = 0, realtime_offset_end_ns = 0;  // 0: not recorded
  int64_t clock_shift_ns = 0;     // already added to its times by `rocpd merge` (metadata)
  bool strings_complete = false;  // every string its records use is in rocpd_string
};

// Which records to keep (`--start/--end`, `--inclusive`). Inclusive (AMD's default): a record
// lies entirely within [begin, end]; otherwise any overlap keeps it.
struct time_window {
  uint64_t begin = 0, end = UINT64_MAX;
  bool inclusive = true;
  bool active() const { return begin != 0 || end != UINT64_MAX; }
};

struct read_options {
  time_window window;
  int64_t time_shift_ns = 0;  // added to every record's timestamps; the window applies after
  size_t batch_size = 16384;  // records per write() call
  // Called after each batch with the number of records read so far (progress bars).
  std::function<void(uint64_t)> progress;
};

class database_reader {
 public:
  // Opens `path` read-only. Fails (nullptr, *error set to one line) for a missing file, a file
  // that is not an SQLite database, a database without rocpd tables, or a schema version
  // other than 3.
  static std::unique_ptr<database_reader> open(const std::string& path, std::string* error);
  virtual ~database_reader() = default;

  virtual const std::vector<process_source>& processes() const = 0;
  virtual int schema_version() const = 0;

  // Smallest start and largest end over regions, samples, kernels, copies and allocations of
  // every process (AMD's time-window span); nullopt when there is no timed record.
  virtual std::optional<std::pair<uint64_t, uint64_t>> time_span() = 0;
  // Start of the one marker range or mark whose message (else API name) is `name`. Fails when
  // there is none or more than one.
  virtual std::optional<uint64_t> marker_start(const std::string& name, std::string* error) = 0;
  // Total rows of the record tables of one process (for progress bars).
  virtual uint64_t record_rows(size_t process) = 0;

  virtual bool read_definitions(size_t process, trace::trace_definitions& defs,
                                std::string* error) = 0;
  // Streams the records of `process` to every writer (which got begin(defs) with the
  // definitions read_definitions filled). Kinds whose category this build does not know are
  // counted in *skipped.
  virtual bool read_records(size_t process, const trace::trace_definitions& defs,
                            const read_options& options, const std::vector<trace::writer*>& out,
                            uint64_t* skipped, std::string* error) = 0;
};

}  // namespace rocprof::formats::rocpd
