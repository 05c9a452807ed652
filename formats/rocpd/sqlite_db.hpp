// A thin SQLite wrapper for the rocpd writer: one checked-call macro that logs the expression,
// file:line and SQLite's message, and multi-row prepared INSERTs for the bulk load.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rocprof::formats::rocpd {

class database {
 public:
  database() = default;
  ~database();
  database(const database&) = delete;
  database& operator=(const database&) = delete;

  bool open(const std::string& path);
  void close();
  sqlite3* handle() const { return db_; }
  bool exec(const std::string& sql, const char* file, int line);

  // Records the first failure (expression, place, SQLite message) and logs it to stderr.
  bool check(int rc, const char* expr, const char* file, int line);
  const std::string& error() const { return error_; }
  bool ok() const { return error_.empty(); }
  // Records a failure that is ours, not SQLite's (same first-failure rule as check()).
  void fail(const std::string& message);

 private:
  sqlite3* db_ = nullptr;
  std::string error_;
};

#define ROCPD_CHECK(db, expr) (db).check((expr), #expr, __FILE__, __LINE__)
#define ROCPD_EXEC(db, sql) (db).exec((sql), __FILE__, __LINE__)

// INSERT INTO table (columns) VALUES (...),(...)...: values are gathered for
// rows_per_statement rows, then bound to one prepared multi-row statement and stepped. flush()
// sends the remainder through a statement prepared for exactly that many rows. Values are put
// into their column's slot (its position in `columns`), in any order; table_insert.hpp names the
// slots by column.
class bulk_insert {
 public:
  static constexpr size_t max_columns = 64;

  bulk_insert(database& db, std::string table, std::vector<std::string> columns,
              int rows_per_statement = 64);
  ~bulk_insert();

  // For tables whose first column is an integer id taken from the data (regions and samples use
  // the correlation id): a row whose id is already taken is stored with a fresh id instead of
  // failing the whole load. `unique_slot` is an integer column whose value differs in every row
  // (event_id); it tells which rows of a failed statement are already stored.
  void renumber_on_conflict(size_t unique_slot);
  bulk_insert(const bulk_insert&) = delete;
  bulk_insert& operator=(const bulk_insert&) = delete;

  // Fill every slot of the next row, then end_row(). A slot left empty is an error (recorded in
  // the database's error, the row is not stored).
  void i64(size_t slot, int64_t v) { put(slot, {kind::integer, v, 0.0, 0, 0}); }
  void f64(size_t slot, double v) { put(slot, {kind::real, 0, v, 0, 0}); }
  void null(size_t slot) { put(slot, {kind::null, 0, 0.0, 0, 0}); }
  void text(size_t slot, std::string_view v) {
    put(slot, {kind::text, 0, 0.0, static_cast<uint32_t>(arena_.size()),
               static_cast<uint32_t>(v.size())});
    arena_.append(v);
  }
  void end_row() {
    if (filled_ != all_filled_) return reject_row();
    filled_ = 0;
    if (++rows_ == rows_per_statement_) send(multi_, rows_);
  }
  void flush();
  uint64_t rows() const { return total_rows_; }
  const std::string& table() const { return table_; }
  const std::string& column(size_t slot) const { return columns_[slot]; }

 private:
  enum class kind : uint8_t { null, integer, real, text };
  struct value {
    kind k;
    int64_t i;
    double d;
    uint32_t offset, size;
  };
  void put(size_t slot, const value& v) {
    values_[static_cast<size_t>(rows_) * columns_.size() + slot] = v;
    filled_ |= uint64_t{1} << slot;
  }
  void reject_row();
  sqlite3_stmt* prepare(int rows);
  void send(sqlite3_stmt* stmt, int rows);
  void bind_rows(sqlite3_stmt* stmt, size_t first_value, size_t count);
  void send_one_by_one(int rows);

  database& db_;
  std::string table_;
  std::vector<std::string> columns_;
  int rows_per_statement_;
  sqlite3_stmt* multi_ = nullptr;
  sqlite3_stmt* single_ = nullptr;  // prepared on the first conflict
  sqlite3_stmt* lookup_ = nullptr;  // SELECT unique column FROM table WHERE id = ?
  bool renumber_ = false;
  size_t unique_column_ = 0;
  int rows_ = 0;
  uint64_t filled_ = 0;        // slots of the current row that hold a value
  uint64_t all_filled_ = 0;    // every slot
  std::vector<value> values_;  // rows_per_statement rows of columns_.size() slots
  std::string arena_;          // text of the gathered rows
  uint64_t total_rows_ = 0;
};

}  // namespace rocprof::formats::rocpd
