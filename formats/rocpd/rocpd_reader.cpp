// rocpd reader: opening a database, finding its processes (one per uuid-suffixed table set) and
// their metadata, the time span and marker look-ups of `--start/--end`.
#include <sys/stat.h>

#include <algorithm>
#include <cstring>

#include "rocpd/rocpd_reader_impl.hpp"
#include "rocpd/rocpd_schema.hpp"
#include "rocpd/rocpd_tables.hpp"
#include "rocpd/table_select.hpp"

namespace rocprof::formats::rocpd {

namespace {

int64_t to_i64(std::string_view text) {
  int64_t v = 0;
  bool negative = !text.empty() && text.front() == '-';
  for (char c : negative ? text.substr(1) : text) {
    if (c < '0' || c > '9') return 0;
    v = v * 10 + (c - '0');
  }
  return negative ? -v : v;
}

// The timed tables AMD's time-window span covers (time_window.py: regions and samples, kernel
// dispatches, allocations, copies), as (table, start column, end column).
struct timed_table {
  std::string_view base, start, end;
};
constexpr timed_table timed_tables[] = {
    {"rocpd_region", "start", "end"},          {"rocpd_sample", "timestamp", "timestamp"},
    {"rocpd_kernel_dispatch", "start", "end"}, {"rocpd_memory_allocate", "start", "end"},
    {"rocpd_memory_copy", "start", "end"},
};

}  // namespace

std::unique_ptr<database_reader> database_reader::open(const std::string& path,
                                                       std::string* error) {
  auto reader = std::make_unique<reader_impl>();
  if (!reader->open(path, error)) return nullptr;
  return reader;
}

reader_impl::~reader_impl() {
  if (db_) sqlite3_close_v2(db_);
}

bool reader_impl::open(const std::string& path, std::string* error) {
  path_ = path;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    *error = path + ": no such database file";
    return false;
  }
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) !=
      SQLITE_OK) {
    *error = path + ": cannot open: " + sqlite3_errmsg(db_);
    return false;
  }
  // Reading settings: a page cache of 32 MiB and no memory map (mapped pages of a large file
  // would count as resident memory); sorts spill to disk.
  sqlite3_exec(db_,
               "PRAGMA query_only=1; PRAGMA mmap_size=0; PRAGMA cache_size=-32768;"
               "PRAGMA temp_store=FILE;",
               nullptr, nullptr, nullptr);
  return discover(error);
}

bool reader_impl::has_table(size_t process, std::string_view base) const {
  const std::string name = std::string{base} + suffixes_[process];
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db_, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", -1, &stmt,
                     nullptr);
  sqlite3_bind_text(stmt, 1, name.c_str(), -1, SQLITE_TRANSIENT);
  const bool found = sqlite3_step(stmt) == SQLITE_ROW;
  sqlite3_finalize(stmt);
  return found;
}

// Every physical `rocpd_metadata<suffix>` table is one process's table set.
bool reader_impl::discover(std::string* error) {
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(
      db_,
      "SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'rocpd_metadata%' "
      "ORDER BY rowid",
      -1, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    *error = path_ + ": not an SQLite database (" + sqlite3_errmsg(db_) + ")";
    return false;
  }
  std::vector<std::string> suffixes;
  int step = SQLITE_ROW;
  while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
    const std::string name = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    suffixes.push_back(name.substr(std::strlen("rocpd_metadata")));
  }
  sqlite3_finalize(stmt);
  if (step != SQLITE_DONE) {
    *error = path_ + ": not an SQLite database (" + sqlite3_errmsg(db_) + ")";
    return false;
  }
  if (suffixes.empty()) {
    *error = path_ + ": not a rocpd database (no rocpd_metadata table)";
    return false;
  }
  for (const auto& suffix : suffixes) {
    process_source p;
    p.path = path_;
    if (!read_metadata(p, suffix, error)) return false;
    processes_.push_back(std::move(p));
    suffixes_.push_back(suffix);
  }
  // pid and hostname of each process (the first process row of its table set).
  for (size_t i = 0; i < processes_.size(); ++i) {
    table_select q{db_};
    const int pid = q.column<info_process_table>("P", info_process_table::column::pid);
    const int host = q.column<info_node_table>("N", info_node_table::column::hostname);
    if (!q.prepare("FROM " + table(i, "rocpd_info_process") + " P LEFT JOIN " +
                   table(i, "rocpd_info_node") + " N ON N.id = P.nid LIMIT 1")) {
      *error = path_ + ": not a rocpd database: " + q.error();
      return false;
    }
    if (q.step()) {
      processes_[i].pid = q.i64(pid);
      processes_[i].hostname = std::string{q.text(host)};
    }
  }
  return true;
}

bool reader_impl::read_metadata(process_source& p, const std::string& suffix, std::string* error) {
  table_select q{db_};
  const int tag = q.column<metadata_table>("M", metadata_table::column::tag);
  const int value = q.column<metadata_table>("M", metadata_table::column::value);
  if (!q.prepare("FROM \"rocpd_metadata" + suffix + "\" M ORDER BY M.id")) {
    *error = path_ + ": not a rocpd database: " + q.error();
    return false;
  }
  int version = 0;
  while (q.step()) {
    const auto t = q.text(tag);
    const auto v = q.text(value);
    if (t == "schema_version") version = static_cast<int>(to_i64(v));
    if (t == "uuid") p.uuid = std::string{!v.empty() && v.front() == '_' ? v.substr(1) : v};
    if (t == "guid") p.guid = std::string{v};
    if (t == "mpi_rank") p.mpi_rank = to_i64(v);
    if (t == "mpi_size") p.mpi_size = to_i64(v);
    if (t == "realtime_offset_start_ns") p.realtime_offset_start_ns = to_i64(v);
    if (t == "realtime_offset_end_ns") p.realtime_offset_end_ns = to_i64(v);
    if (t == "clock_shift_ns") p.clock_shift_ns = to_i64(v);
    if (t == "strings_complete") p.strings_complete = v == "1";
  }
  if (version != rocpd::schema_version) {
    *error = path_ + ": rocpd schema version " +
             (version ? std::to_string(version) : std::string{"(none)"}) +
             " is not supported (this build reads version " +
             std::to_string(rocpd::schema_version) + ")";
    return false;
  }
  if (schema_version_ == 0) schema_version_ = version;
  return true;
}

std::optional<std::pair<uint64_t, uint64_t>> reader_impl::time_span() {
  std::optional<std::pair<uint64_t, uint64_t>> span;
  for (size_t i = 0; i < processes_.size(); ++i) {
    for (const auto& t : timed_tables) {
      if (!has_table(i, t.base)) continue;
      table_select q{db_};
      const int lo = q.expression("MIN(\"" + std::string{t.start} + "\")");
      const int hi = q.expression("MAX(\"" + std::string{t.end} + "\")");
      if (!q.prepare("FROM " + table(i, t.base)) || !q.step() || q.is_null(lo)) continue;
      const auto a = q.u64(lo), b = q.u64(hi);
      if (!span)
        span.emplace(a, b);
      else
        span = std::make_pair(std::min(span->first, a), std::max(span->second, b));
    }
  }
  return span;
}

// AMD's tool looks the name up in its `markers` view by region name, which is the API name;
// users name markers by their message, so the message is tried first.
std::optional<uint64_t> reader_impl::marker_start(const std::string& name, std::string* error) {
  std::vector<uint64_t> found;
  for (const char* column : {"message", "name"}) {
    for (size_t i = 0; i < processes_.size() && found.empty(); ++i) {
      const std::string by =
          std::string{column} == "message" ? "json_extract(E.extdata, '$.message')" : "S.string";
      table_select q{db_};
      const int start = q.column<region_table>("R", region_table::column::start);
      if (!q.prepare("FROM " + table(i, "rocpd_region") + " R JOIN " + table(i, "rocpd_event") +
                     " E ON E.id = R.event_id JOIN " + table(i, "rocpd_string") +
                     " C ON C.id = E.category_id LEFT JOIN " + table(i, "rocpd_string") +
                     " S ON S.id = R.name_id WHERE C.string LIKE 'MARKER_%' AND " + by + " = ?"))
        continue;
      q.bind(1, name);
      while (q.step())
        found.push_back(q.u64(start));
    }
    if (!found.empty()) break;
  }
  if (found.empty()) {
    *error = "marker \"" + name + "\" not found";
    return std::nullopt;
  }
  if (found.size() > 1) {
    *error = "ambiguous marker \"" + name + "\": " + std::to_string(found.size()) + " ranges";
    return std::nullopt;
  }
  return found.front();
}

uint64_t reader_impl::record_rows(size_t process) {
  const auto rows_of = [&](std::string_view base) -> uint64_t {
    if (!has_table(process, base)) return 0;
    table_select q{db_};
    const int n = q.expression("COUNT(*)");
    return q.prepare("FROM " + table(process, base)) && q.step() ? q.u64(n) : 0;
  };
  uint64_t rows = 0;
  for (const auto& t : timed_tables)
    rows += rows_of(t.base);
  // PC samples have no place in the time span (aggregated ones have no time) but are records.
  return rows + rows_of("rocpd_pc_sample");
}

}  // namespace rocprof::formats::rocpd
