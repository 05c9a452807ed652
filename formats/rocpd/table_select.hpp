// A SELECT over declared rocpd tables (rocpd_tables.hpp), columns named by their declaration:
//
//   table_select q{db};
//   const auto start = q.column<region_table>("r", region_col::start);
//   const auto cat = q.column<event_table>("e", event_col::category_id);
//   q.prepare("FROM rocpd_region_X r JOIN rocpd_event_X e ON e.id = r.event_id");
//   while (q.step()) use(q.u64(start), q.i64(cat));
//
// The reader and `rocpd merge` read with it, so they name exactly the columns the writer
// inserts; a column the schema does not declare cannot be asked for.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace rocprof::formats::rocpd {

class table_select {
 public:
  explicit table_select(sqlite3* db) : db_{db} {}
  ~table_select() { sqlite3_finalize(stmt_); }
  table_select(const table_select&) = delete;
  table_select& operator=(const table_select&) = delete;

  // Adds `<alias>."<column>"` to the select list; returns its slot.
  template <typename Table>
  int column(std::string_view alias, typename Table::column c) {
    return expression(std::string{alias} + ".\"" +
                      std::string{Table::column_names[static_cast<size_t>(c)]} + "\"");
  }
  // Adds any expression (a json_extract, a constant); returns its slot.
  int expression(const std::string& text) {
    list_ += (count_ ? ", " : "") + text;
    return count_++;
  }

  // "SELECT <list> " + tail. False with error() set when SQLite refuses it.
  bool prepare(const std::string& tail) {
    sql_ = "SELECT " + list_ + " " + tail;
    if (sqlite3_prepare_v2(db_, sql_.c_str(), -1, &stmt_, nullptr) == SQLITE_OK) return true;
    error_ = std::string{sqlite3_errmsg(db_)} + " in: " + sql_;
    return false;
  }
  void bind(int index, int64_t v) { sqlite3_bind_int64(stmt_, index, v); }
  void bind(int index, std::string_view v) {
    sqlite3_bind_text(stmt_, index, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }

  // Next row; false at the end or on an error (then error() is set).
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) error_ = std::string{sqlite3_errmsg(db_)} + " in: " + sql_;
    return false;
  }

  int64_t i64(int slot) const { return sqlite3_column_int64(stmt_, slot); }
  uint64_t u64(int slot) const { return static_cast<uint64_t>(i64(slot)); }
  double f64(int slot) const { return sqlite3_column_double(stmt_, slot); }
  bool is_null(int slot) const { return sqlite3_column_type(stmt_, slot) == SQLITE_NULL; }
  std::string_view text(int slot) const {
    const auto* p = sqlite3_column_text(stmt_, slot);
    return p ? std::string_view{reinterpret_cast<const char*>(p),
                                static_cast<size_t>(sqlite3_column_bytes(stmt_, slot))}
             : std::string_view{};
  }
  const std::string& error() const { return error_; }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string list_, sql_, error_;
  int count_ = 0;
};

}  // namespace rocprof::formats::rocpd
