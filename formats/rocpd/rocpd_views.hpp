// Helpers shared by the union views of `rocpd query` and `rocpd merge` (internal).
#pragma once

#include <sqlite3.h>

#include <string>
#include <utility>
#include <vector>

namespace rocprof::formats::rocpd {

// A schema text (data_views.sql, summary_views.sql) with an empty uuid and guid, its CREATE VIEW
// made CREATE TEMPORARY VIEW when `temporary`: views over the plain-named tables or views.
std::string plain_view_text(const char* text, bool temporary);

// The rocpd tables of an attached schema ("main", "db0", ...), in creation order, with their
// base names (the name without the uuid suffix of the table set it belongs to).
std::vector<std::pair<std::string, std::string>> rocpd_tables_of(sqlite3* db,
                                                                 const std::string& schema);

// A name quoted for SQL ("name").
inline std::string sql_name(const std::string& name) {
  return "\"" + name + "\"";
}

// Runs SQL; false with *error (SQLite's message and the statement's start) on failure.
bool exec_sql(sqlite3* db, const std::string& sql, std::string* error);

// The data views and summary views of schema 3 over the plain names.
bool create_data_views(sqlite3* db, bool temporary, std::string* error);

}  // namespace rocprof::formats::rocpd
