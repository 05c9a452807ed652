// A bulk INSERT into one declared rocpd table (rocpd_tables.hpp), filled by column name:
//
//   table_insert<region_table> regions{db, uuid_suffix, {col::id, col::start, col::end, ...}};
//   regions.u64(col::start, r.start_ns).u64(col::end, r.end_ns) ... .end_row();
//
// The INSERT names exactly the columns given at construction (the others keep their schema
// defaults); each row must give each of them a value, in any order. Naming a column the INSERT
// does not list, or leaving one out, is recorded as the database's error.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocpd/rocpd_tables.hpp"
#include "rocpd/sqlite_db.hpp"

namespace rocprof::formats::rocpd {

template <typename Table>
class table_insert {
 public:
  using column = typename Table::column;
  static_assert(Table::column_count <= bulk_insert::max_columns);

  table_insert(database& db, std::string_view uuid_suffix, const std::vector<column>& columns,
               int rows_per_statement = 64)
      : db_{db},
        rows_{db, std::string{Table::table_name} + std::string{uuid_suffix}, names_of(columns),
              rows_per_statement} {
    slots_.fill(no_slot);
    uint8_t slot = 0;
    for (column c : columns)
      slots_[index(c)] = slot++;
  }

  table_insert& i64(column c, int64_t v) {
    if (const auto s = slot(c); s != no_slot) rows_.i64(s, v);
    return *this;
  }
  // Unsigned values are stored as SQLite's signed 64-bit integers (same bits).
  table_insert& u64(column c, uint64_t v) { return i64(c, static_cast<int64_t>(v)); }
  table_insert& f64(column c, double v) {
    if (const auto s = slot(c); s != no_slot) rows_.f64(s, v);
    return *this;
  }
  table_insert& text(column c, std::string_view v) {
    if (const auto s = slot(c); s != no_slot) rows_.text(s, v);
    return *this;
  }
  table_insert& null(column c) {
    if (const auto s = slot(c); s != no_slot) rows_.null(s);
    return *this;
  }
  void end_row() { rows_.end_row(); }
  void flush() { rows_.flush(); }

  // See bulk_insert::renumber_on_conflict; the first listed column is the id.
  void renumber_on_conflict(column unique) { rows_.renumber_on_conflict(slot(unique)); }

 private:
  static constexpr uint8_t no_slot = 0xff;
  static size_t index(column c) { return static_cast<size_t>(c); }
  static std::vector<std::string> names_of(const std::vector<column>& columns) {
    std::vector<std::string> names;
    for (column c : columns)
      names.emplace_back(Table::column_names[index(c)]);
    return names;
  }
  uint8_t slot(column c) {
    const uint8_t s = slots_[index(c)];
    if (s == no_slot)
      db_.fail("rocpd: INSERT INTO " + rows_.table() + " does not list column \"" +
               std::string{Table::column_names[index(c)]} + "\"");
    return s;
  }

  database& db_;
  bulk_insert rows_;
  std::array<uint8_t, Table::column_count> slots_{};
};

}  // namespace rocprof::formats::rocpd
