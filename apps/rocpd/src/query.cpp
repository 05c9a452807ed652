// `rocpd query`: an SQL query over the inputs' views (AMD's plain-named union views, data views
// and summary views), optionally after a --script, printed or exported.
#include <sqlite3.h>

#include <filesystem>

#include "commands.hpp"
#include "inputs.hpp"
#include "output_table.hpp"
#include "result_table.hpp"
#include "rocprof/common/read_file.hpp"
#include "rocprof/formats/rocpd_database.hpp"

namespace rocprof::rocpd_cli {

int run_query(const rocpd_args& args, std::ostream& out) {
  const auto inputs = open_inputs(args);  // one clear error for a bad input first
  const auto window = resolve_window(args, inputs);
  std::string error;
  sqlite3* db = formats::rocpd::open_union_views(args.list("input"), window, &error);
  if (!db) throw usage_error(error);
  struct closer {
    sqlite3* db;
    ~closer() { sqlite3_close_v2(db); }
  } close_at_end{db};

  if (const auto script = args.text("script"); !script.empty()) {
    std::string text;
    if (!common::read_whole_file(script, text))
      throw usage_error("--script: cannot read " + script);
    char* message = nullptr;
    if (sqlite3_exec(db, text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
      const std::string why = message ? message : "error";
      sqlite3_free(message);
      throw usage_error("--script " + script + " failed: " + why);
    }
  }
  const std::string sql = args.text("query");
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    throw usage_error("query failed: " + std::string{sqlite3_errmsg(db)});
  result_table table;
  table.name = "query_output";
  const bool ok = read_rows(stmt, table, &error);
  sqlite3_finalize(stmt);
  if (!ok) throw usage_error("query failed: " + error);
  if (table.rows.empty()) {
    out << "No results found for query: " << sql << "\n";
    return 0;
  }
  const std::string name = args.given("output_file") ? output_name(args) : table.name;
  emit_table(table, args.text("format"), output_directory(args), name, out);
  return 0;
}

}  // namespace rocprof::rocpd_cli
