// `rocpd merge`: one database from many. Every process's uuid-suffixed tables are copied as
// they are (AMD's layout keeps processes apart by suffix), with each process's timestamps moved
// onto the first process's CLOCK_BOOTTIME through the wall-clock offsets it recorded.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "rocpd/rocpd_views.hpp"
#include "rocprof/formats/rocpd_database.hpp"

namespace rocprof::formats::rocpd {

namespace {

std::vector<std::string> strings_of(sqlite3* db, const std::string& sql) {
  std::vector<std::string> out;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) return out;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const auto* text = sqlite3_column_text(stmt, 0);
    out.emplace_back(text ? reinterpret_cast<const char*>(text) : "");
  }
  sqlite3_finalize(stmt);
  return out;
}

// Columns that hold CLOCK_BOOTTIME timestamps. 0 means "unknown" in thread rows (threads only
// the records named) and stays 0.
bool is_time_column(const std::string& table_base, const std::string& column) {
  if (table_base == "rocpd_info_node" || table_base == "rocpd_metadata") return false;
  return column == "start" || column == "end" || column == "init" || column == "fini" ||
         column == "timestamp";
}

struct source {
  std::string path;
  process_source process;
};

}  // namespace

bool merge_databases(const std::vector<std::string>& inputs, const std::string& output,
                     merge_report* report, std::string* error,
                     const std::function<void(size_t, size_t)>& progress) {
  // Every input must be a rocpd database of the version this build reads.
  std::vector<source> sources;
  for (const auto& path : inputs) {
    auto reader = database_reader::open(path, error);
    if (!reader) return false;
    for (const auto& p : reader->processes())
      sources.push_back({path, p});
  }
  // Reference: the lowest rank (else the first process) that recorded its clock offsets.
  std::stable_sort(sources.begin(), sources.end(), [](const source& a, const source& b) {
    const auto key = [](const source& s) {
      return s.process.mpi_rank < 0 ? INT64_MAX : s.process.mpi_rank;
    };
    return key(a) < key(b);
  });
  int64_t reference = 0;
  for (const auto& s : sources)
    if (s.process.realtime_offset_start_ns != 0) {
      reference = s.process.realtime_offset_start_ns;
      break;
    }

  std::error_code ec;
  std::filesystem::remove(output, ec);
  if (const auto parent = std::filesystem::path(output).parent_path(); !parent.empty())
    std::filesystem::create_directories(parent, ec);
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(output.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    *error = output + ": cannot create: " + sqlite3_errmsg(db);
    sqlite3_close_v2(db);
    return false;
  }
  const auto done = [&](bool ok) {
    sqlite3_close_v2(db);
    if (!ok) std::filesystem::remove(output, ec);
    return ok;
  };
  if (!exec_sql(db,
                "PRAGMA page_size=65536; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                "PRAGMA locking_mode=EXCLUSIVE; PRAGMA foreign_keys=OFF; BEGIN;",
                error))
    return done(false);

  std::map<std::string, std::vector<std::string>> unions;  // base name -> tables
  std::vector<std::string> order;
  std::set<std::string> attached;
  for (size_t i = 0; i < sources.size(); ++i) {
    const auto& s = sources[i];
    if (progress) progress(i, sources.size());
    sqlite3_stmt* attach = nullptr;
    sqlite3_prepare_v2(db, "ATTACH DATABASE ? AS src", -1, &attach, nullptr);
    sqlite3_bind_text(attach, 1, s.path.c_str(), -1, SQLITE_TRANSIENT);
    const int attached_rc = sqlite3_step(attach);
    sqlite3_finalize(attach);
    if (attached_rc != SQLITE_DONE) {
      *error = s.path + ": cannot attach: " + sqlite3_errmsg(db);
      return done(false);
    }
    const std::string suffix = s.process.uuid.empty() ? "" : "_" + s.process.uuid;
    const int64_t shift = s.process.realtime_offset_start_ns != 0 && reference != 0
                              ? s.process.realtime_offset_start_ns - reference
                              : 0;
    for (const auto& [table, base] : rocpd_tables_of(db, "src")) {
      const bool mine = suffix.empty() ? table == base
                                       : table.size() > suffix.size() &&
                                             table.compare(table.size() - suffix.size(),
                                                           suffix.size(), suffix) == 0;
      if (!mine) continue;  // another process of a merged input: copied in its own turn
      if (!attached.insert(table).second) {
        *error = "table " + table + " is in two inputs (the same process given twice?)";
        return done(false);
      }
      const auto create = strings_of(
          db, "SELECT sql FROM src.sqlite_master WHERE type='table' AND name='" + table + "'");
      if (create.empty() || !exec_sql(db, create.front(), error)) return done(false);
      std::string columns;
      for (const auto& c :
           strings_of(db, "SELECT name FROM pragma_table_info('" + table + "', 'src')")) {
        std::string expr = sql_name(c);
        if (shift != 0 && is_time_column(base, c))
          expr = "CASE WHEN " + expr + " IS NULL OR " + expr + " = 0 THEN " + expr + " ELSE " +
                 expr + " + (" + std::to_string(shift) + ") END";
        columns += (columns.empty() ? "" : ", ") + expr;
      }
      if (!exec_sql(db,
                    "INSERT INTO main." + sql_name(table) + " SELECT " + columns + " FROM src." +
                        sql_name(table),
                    error))
        return done(false);
      if (unions.count(base) == 0) order.push_back(base);
      unions[base].push_back(table);
    }
    // Indexes as the input had them, and the shift, noted in the process's own metadata.
    for (const auto& sql :
         strings_of(db,
                    "SELECT sql FROM src.sqlite_master WHERE type='index' AND sql IS NOT "
                    "NULL AND tbl_name LIKE '%" +
                        suffix + "'"))
      if (!exec_sql(db, sql, error)) return done(false);
    if (!exec_sql(db,
                  "INSERT INTO main." + sql_name("rocpd_metadata" + suffix) +
                      " (tag, value) VALUES ('clock_shift_ns', '" + std::to_string(shift) + "')",
                  error) ||
        !exec_sql(db, "COMMIT; DETACH DATABASE src; BEGIN;", error))
      return done(false);
    if (report) {
      const auto& p = s.process;
      const int64_t drift = p.realtime_offset_end_ns != 0 && p.realtime_offset_start_ns != 0
                                ? p.realtime_offset_end_ns - p.realtime_offset_start_ns
                                : 0;
      report->shifts.push_back({p.pid, p.mpi_rank, shift, drift, p.hostname});
    }
  }
  // Plain-named views over every process's table, then the data and summary views.
  std::string views;
  for (const auto& base : order) {
    views += "CREATE VIEW " + sql_name(base) + " AS ";
    for (size_t i = 0; i < unions[base].size(); ++i)
      views += (i ? " UNION ALL " : "") + std::string{"SELECT * FROM "} + sql_name(unions[base][i]);
    views += ";\n";
  }
  if (!exec_sql(db, views, error) || !create_data_views(db, false, error) ||
      !exec_sql(db, "COMMIT", error))
    return done(false);
  if (report) report->processes = sources.size();
  if (progress) progress(sources.size(), sources.size());
  return done(true);
}

}  // namespace rocprof::formats::rocpd
