#include "result_table.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace rocprof::rocpd_cli {
namespace {

std::string plain(const cell& c, bool console) {
  switch (c.k) {
    case cell::kind::null:
      return console ? "None" : "";
    case cell::kind::integer:
      return std::to_string(c.i);
    case cell::kind::real:
      return console ? fmt::format("{:.6f}", c.d) : fmt::format("{}", c.d);
    case cell::kind::text:
      return c.s;
  }
  return {};
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s)
    out += ch == '"' ? std::string{"\"\""} : std::string(1, ch);
  return out + "\"";
}

// A JSON string literal (nlohmann's escaping).
std::string json_string(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string json_value(const cell& c) {
  switch (c.k) {
    case cell::kind::null:
      return "null";
    case cell::kind::integer:
      return std::to_string(c.i);
    case cell::kind::real:
      return std::isfinite(c.d) ? fmt::format("{}", c.d) : "null";
    case cell::kind::text:
      return json_string(c.s);
  }
  return "null";
}

std::string html_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '<')
      out += "&lt;";
    else if (ch == '>')
      out += "&gt;";
    else if (ch == '&')
      out += "&amp;";
    else
      out += ch;
  }
  return out;
}

// Right-aligned columns separated by one space (pandas' to_string without the index).
std::string console(const result_table& t) {
  std::vector<size_t> width(t.columns.size());
  std::vector<std::vector<std::string>> text;
  for (size_t c = 0; c < t.columns.size(); ++c)
    width[c] = t.columns[c].size();
  for (const auto& row : t.rows) {
    auto& line = text.emplace_back();
    for (size_t c = 0; c < row.size() && c < width.size(); ++c) {
      line.push_back(plain(row[c], true));
      width[c] = std::max(width[c], line.back().size());
    }
  }
  std::string out;
  const auto emit = [&](const std::vector<std::string>& cells) {
    for (size_t c = 0; c < cells.size(); ++c)
      fmt::format_to(std::back_inserter(out), "{}{:>{}}", c ? " " : "", cells[c], width[c]);
    out += '\n';
  };
  emit(t.columns);
  for (const auto& line : text)
    emit(line);
  return out;
}

}  // namespace

bool read_rows(sqlite3_stmt* stmt, result_table& table, std::string* error) {
  const int n = sqlite3_column_count(stmt);
  table.columns.clear();
  for (int c = 0; c < n; ++c)
    table.columns.emplace_back(sqlite3_column_name(stmt, c));
  int rc = SQLITE_ROW;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    auto& row = table.rows.emplace_back();
    for (int c = 0; c < n; ++c) {
      switch (sqlite3_column_type(stmt, c)) {
        case SQLITE_INTEGER:
          row.push_back(cell::integer(sqlite3_column_int64(stmt, c)));
          break;
        case SQLITE_FLOAT:
          row.push_back(cell::real(sqlite3_column_double(stmt, c)));
          break;
        case SQLITE_NULL:
          row.emplace_back();
          break;
        default:
          row.push_back(cell::text(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c))));
      }
    }
  }
  if (rc != SQLITE_DONE) {
    *error = sqlite3_errmsg(sqlite3_db_handle(stmt));
    return false;
  }
  return true;
}

std::string render(const result_table& t, std::string_view format) {
  std::string out;
  auto it = std::back_inserter(out);
  if (format == "console") return console(t);
  if (format == "csv") {
    for (size_t c = 0; c < t.columns.size(); ++c)
      out += (c ? "," : "") + csv_field(t.columns[c]);
    out += '\n';
    for (const auto& row : t.rows) {
      for (size_t c = 0; c < row.size(); ++c)
        out += (c ? "," : "") + csv_field(plain(row[c], false));
      out += '\n';
    }
    return out;
  }
  if (format == "json") {
    out += "[";
    for (size_t r = 0; r < t.rows.size(); ++r) {
      out += r ? ",\n  {" : "\n  {";
      for (size_t c = 0; c < t.columns.size() && c < t.rows[r].size(); ++c)
        fmt::format_to(it, "{}\n    {}: {}", c ? "," : "", json_string(t.columns[c]),
                       json_value(t.rows[r][c]));
      out += "\n  }";
    }
    out += "\n]\n";
    return out;
  }
  if (format == "md") {
    out += "|";
    for (const auto& c : t.columns)
      out += " " + c + " |";
    out += "\n|";
    for (size_t c = 0; c < t.columns.size(); ++c)
      out += "---|";
    out += "\n";
    for (const auto& row : t.rows) {
      out += "|";
      for (const auto& c : row)
        out += " " + plain(c, true) + " |";
      out += "\n";
    }
    return out;
  }
  // html
  out +=
      "<table border=\"1\" class=\"dataframe\">\n  <thead>\n    <tr style=\"text-align: "
      "right;\">\n";
  for (const auto& c : t.columns)
    out += "      <th>" + html_escape(c) + "</th>\n";
  out += "    </tr>\n  </thead>\n  <tbody>\n";
  for (const auto& row : t.rows) {
    out += "    <tr>\n";
    for (const auto& c : row)
      out += "      <td>" + html_escape(plain(c, true)) + "</td>\n";
    out += "    </tr>\n";
  }
  out += "  </tbody>\n</table>\n";
  return out;
}

}  // namespace rocprof::rocpd_cli
