// A table of results (a query's rows, a summary view) and its renderings: console text, CSV,
// JSON (a list of records), Markdown and HTML, as AMD's rocpd writes them through pandas.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rocprof::rocpd_cli {

struct cell {
  enum class kind : uint8_t { null, integer, real, text } k = kind::null;
  int64_t i = 0;
  double d = 0.0;
  std::string s;
  static cell integer(int64_t v) { return {kind::integer, v, 0.0, {}}; }
  static cell real(double v) { return {kind::real, 0, v, {}}; }
  static cell text(std::string v) { return {kind::text, 0, 0.0, std::move(v)}; }
};

struct result_table {
  std::string name;  // view name ("kernels_summary"); the file name's stem
  std::vector<std::string> columns;
  std::vector<std::vector<cell>> rows;
};

// Every row of a prepared statement. False with *error set when a step fails.
bool read_rows(sqlite3_stmt* stmt, result_table& table, std::string* error);

// "console", "csv", "json", "md" or "html".
std::string render(const result_table& table, std::string_view format);

}  // namespace rocprof::rocpd_cli
