#include "rocpd/sqlite_db.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace rocprof::formats::rocpd {

database::~database() {
  close();
}

bool database::open(const std::string& path) {
  close();
  const int rc = sqlite3_open_v2(
      path.c_str(), &db_,
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW,
      nullptr);
  return check(rc, "sqlite3_open_v2(path)", __FILE__, __LINE__);
}

void database::close() {
  if (db_) {
    sqlite3_close_v2(db_);
    db_ = nullptr;
  }
}

bool database::check(int rc, const char* expr, const char* file, int line) {
  if (rc == SQLITE_OK || rc == SQLITE_DONE || rc == SQLITE_ROW) return true;
  auto message = fmt::format("rocpd: {} failed at {}:{}: {} ({})", expr, file, line,
                             db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc), rc);
  fail(message);
  return false;
}

void database::fail(const std::string& message) {
  if (error_.empty()) {
    error_ = message;
    std::fprintf(stderr, "%s\n", message.c_str());
  }
}

bool database::exec(const std::string& sql, const char* file, int line) {
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
  if (err) sqlite3_free(err);
  return check(rc, "sqlite3_exec", file, line);
}

bulk_insert::bulk_insert(database& db, std::string table, std::vector<std::string> columns,
                         int rows_per_statement)
    : db_{db},
      table_{std::move(table)},
      columns_{std::move(columns)},
      rows_per_statement_{rows_per_statement} {
  if (columns_.empty() || columns_.size() > max_columns) {
    db_.fail(fmt::format("rocpd: INSERT INTO {} with {} columns", table_, columns_.size()));
    columns_.assign(1, "id");  // keeps the slot arithmetic valid; nothing will be stored
  }
  all_filled_ =
      columns_.size() == max_columns ? ~uint64_t{0} : (uint64_t{1} << columns_.size()) - 1;
  multi_ = prepare(rows_per_statement_);
  values_.resize(columns_.size() * static_cast<size_t>(rows_per_statement_));
}

bulk_insert::~bulk_insert() {
  if (multi_) sqlite3_finalize(multi_);
  if (single_) sqlite3_finalize(single_);
  if (lookup_) sqlite3_finalize(lookup_);
}

sqlite3_stmt* bulk_insert::prepare(int rows) {
  std::string sql = fmt::format("INSERT INTO \"{}\" (", table_);
  for (size_t c = 0; c < columns_.size(); ++c)
    sql += (c ? ",\"" : "\"") + columns_[c] + "\"";
  sql += ") VALUES ";
  std::string one = "(";
  for (size_t c = 0; c < columns_.size(); ++c)
    one += c ? ",?" : "?";
  one += ')';
  for (int r = 0; r < rows; ++r) {
    if (r) sql += ',';
    sql += one;
  }
  sqlite3_stmt* stmt = nullptr;
  ROCPD_CHECK(db_, sqlite3_prepare_v2(db_.handle(), sql.c_str(), static_cast<int>(sql.size()),
                                      &stmt, nullptr));
  return stmt;
}

void bulk_insert::bind_rows(sqlite3_stmt* stmt, size_t first_value, size_t count) {
  int param = 0;
  for (size_t i = first_value; i < first_value + count; ++i) {
    const auto& v = values_[i];
    ++param;
    switch (v.k) {
      case kind::null:
        sqlite3_bind_null(stmt, param);
        break;
      case kind::integer:
        sqlite3_bind_int64(stmt, param, v.i);
        break;
      case kind::real:
        sqlite3_bind_double(stmt, param, v.d);
        break;
      case kind::text:
        // The arena is not touched until after the step, so the text may be bound in place.
        sqlite3_bind_text(stmt, param, arena_.data() + v.offset, static_cast<int>(v.size),
                          SQLITE_STATIC);
        break;
    }
  }
}

void bulk_insert::renumber_on_conflict(size_t unique_slot) {
  renumber_ = true;
  unique_column_ = unique_slot;
}

// A row with an empty slot would bind the previous row's value there: it is dropped, and the
// first such row names the column in the database's error (a writer bug, caught by the tests).
void bulk_insert::reject_row() {
  for (size_t c = 0; c < columns_.size(); ++c)
    if ((filled_ & (uint64_t{1} << c)) == 0) {
      db_.fail(fmt::format("rocpd: INSERT INTO {}: row without a value for \"{}\"", table_,
                           columns_[c]));
      break;
    }
  filled_ = 0;
}

// Without a rollback journal a failed multi-row INSERT keeps the rows before the conflicting
// one. Those are found by id (and recognised by their unique column), the rest is inserted row
// by row, and a row whose id is taken gets a NULL id, i.e. a fresh one.
void bulk_insert::send_one_by_one(int rows) {
  if (!single_) single_ = prepare(1);
  if (!lookup_) {
    const auto sql = fmt::format("SELECT \"{}\" FROM \"{}\" WHERE \"{}\" = ?",
                                 columns_[unique_column_], table_, columns_[0]);
    ROCPD_CHECK(db_, sqlite3_prepare_v2(db_.handle(), sql.c_str(), -1, &lookup_, nullptr));
  }
  if (!single_ || !lookup_) return;
  const size_t ncols = columns_.size();
  int r = 0;
  for (; r < rows; ++r) {
    const auto& id = values_[static_cast<size_t>(r) * ncols];
    const auto& unique = values_[static_cast<size_t>(r) * ncols + unique_column_];
    if (id.k != kind::integer) break;
    sqlite3_bind_int64(lookup_, 1, id.i);
    const bool stored =
        sqlite3_step(lookup_) == SQLITE_ROW && sqlite3_column_int64(lookup_, 0) == unique.i;
    sqlite3_reset(lookup_);
    if (!stored) break;
  }
  for (; r < rows; ++r) {
    bind_rows(single_, static_cast<size_t>(r) * ncols, ncols);
    int rc = sqlite3_step(single_);
    sqlite3_reset(single_);
    if (rc == SQLITE_CONSTRAINT) {
      sqlite3_bind_null(single_, 1);
      rc = sqlite3_step(single_);
      sqlite3_reset(single_);
    }
    ROCPD_CHECK(db_, rc);
  }
}

void bulk_insert::send(sqlite3_stmt* stmt, int rows) {
  if (stmt) {
    bind_rows(stmt, 0, static_cast<size_t>(rows) * columns_.size());
    const int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc == SQLITE_CONSTRAINT && renumber_)
      send_one_by_one(rows);
    else
      ROCPD_CHECK(db_, rc);
    total_rows_ += static_cast<uint64_t>(rows);
  }
  arena_.clear();
  rows_ = 0;
}

void bulk_insert::flush() {
  if (rows_ == 0) return;
  sqlite3_stmt* stmt = prepare(rows_);
  send(stmt, rows_);
  if (stmt) sqlite3_finalize(stmt);
}

}  // namespace rocprof::formats::rocpd
