// Views over several rocpd databases: the in-memory union `rocpd query` runs on, and the text
// of the data and summary views with an empty uuid (shared with `rocpd merge`).
#include <algorithm>
#include <map>

#include "rocpd/rocpd_schema.hpp"
#include "rocpd/rocpd_views.hpp"
#include "rocprof/formats/rocpd_database.hpp"

namespace rocprof::formats::rocpd {

namespace {

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
}

std::vector<std::string> column_names(sqlite3* db, const std::string& schema,
                                      const std::string& table) {
  std::vector<std::string> names;
  sqlite3_stmt* stmt = nullptr;
  const std::string sql = "PRAGMA " + schema + ".table_info(" + sql_name(table) + ")";
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) return names;
  while (sqlite3_step(stmt) == SQLITE_ROW)
    names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1)));
  sqlite3_finalize(stmt);
  return names;
}

}  // namespace

bool exec_sql(sqlite3* db, const std::string& sql, std::string* error) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return true;
  *error = std::string{message ? message : "sqlite error"} + " in: " + sql.substr(0, 200);
  sqlite3_free(message);
  return false;
}

std::string plain_view_text(const char* text, bool temporary) {
  std::string sql = text;
  replace_all(sql, "{{uuid}}", "");
  replace_all(sql, "{{guid}}", "");
  if (temporary) replace_all(sql, "CREATE VIEW", "CREATE TEMPORARY VIEW");
  return sql;
}

std::vector<std::pair<std::string, std::string>> rocpd_tables_of(sqlite3* db,
                                                                 const std::string& schema) {
  std::vector<std::string> suffixes;
  std::vector<std::pair<std::string, std::string>> out;  // (table, base name)
  sqlite3_stmt* stmt = nullptr;
  const std::string sql = "SELECT name FROM " + schema +
                          ".sqlite_master WHERE type='table' AND name LIKE 'rocpd_%' ORDER BY "
                          "rowid";
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) return out;
  std::vector<std::string> names;
  while (sqlite3_step(stmt) == SQLITE_ROW)
    names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
  sqlite3_finalize(stmt);
  for (const auto& n : names)
    if (n.rfind("rocpd_metadata", 0) == 0) suffixes.push_back(n.substr(14));
  for (const auto& n : names) {
    std::string base = n;
    for (const auto& s : suffixes)
      if (!s.empty() && n.size() > s.size() && n.compare(n.size() - s.size(), s.size(), s) == 0) {
        base = n.substr(0, n.size() - s.size());
        break;
      }
    out.emplace_back(n, base);
  }
  return out;
}

bool create_data_views(sqlite3* db, bool temporary, std::string* error) {
  return exec_sql(db, plain_view_text(data_views_sql, temporary), error) &&
         exec_sql(db, plain_view_text(summary_views_sql, temporary), error);
}

sqlite3* open_union_views(const std::vector<std::string>& inputs, const time_window& window,
                          std::string* error) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 125);
  std::map<std::string, std::vector<std::string>> unions;  // base name -> SELECTs
  std::vector<std::string> order;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string schema = "db" + std::to_string(i);
    sqlite3_stmt* attach = nullptr;
    sqlite3_prepare_v2(db, ("ATTACH DATABASE ? AS " + schema).c_str(), -1, &attach, nullptr);
    sqlite3_bind_text(attach, 1, inputs[i].c_str(), -1, SQLITE_TRANSIENT);
    const int rc = sqlite3_step(attach);
    sqlite3_finalize(attach);
    if (rc != SQLITE_DONE) {
      *error = inputs[i] + ": cannot attach: " + sqlite3_errmsg(db) +
               (i >= 10 ? " (SQLite limits how many databases one query attaches)" : "");
      sqlite3_close_v2(db);
      return nullptr;
    }
    for (const auto& [table, base] : rocpd_tables_of(db, schema)) {
      std::string select = "SELECT * FROM " + schema + "." + sql_name(table);
      if (window.active() && base.rfind("rocpd_info_", 0) != 0) {
        const auto cols = column_names(db, schema, table);
        const auto has = [&cols](const char* c) {
          return std::find(cols.begin(), cols.end(), c) != cols.end();
        };
        const std::string b = std::to_string(window.begin), e = std::to_string(window.end);
        if (has("start") && has("end"))
          select += window.inclusive ? " WHERE start >= " + b + " AND end <= " + e
                                     : " WHERE start <= " + e + " AND end >= " + b;
        else if (has("timestamp"))
          select += " WHERE timestamp >= " + b + " AND timestamp <= " + e;
      }
      if (unions.count(base) == 0) order.push_back(base);
      unions[base].push_back(select);
    }
  }
  std::string sql;
  for (const auto& base : order) {
    sql += "CREATE TEMPORARY VIEW " + sql_name(base) + " AS ";
    for (size_t i = 0; i < unions[base].size(); ++i)
      sql += (i ? " UNION ALL " : "") + unions[base][i];
    sql += ";\n";
  }
  if (!exec_sql(db, sql, error) || !create_data_views(db, true, error)) {
    sqlite3_close_v2(db);
    return nullptr;
  }
  return db;
}

}  // namespace rocprof::formats::rocpd
