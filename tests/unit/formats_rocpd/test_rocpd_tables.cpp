// The rocpd writer's table declarations (rocpd_tables.hpp) against the schema text it executes
// (sql/rocpd_tables.sql): SQLite itself creates the tables and reports their columns (PRAGMA
// table_info), which must be the declared ones, in order, for every table, with no table left
// undeclared. Then table_insert: rows bound by column name in any order land in the right
// columns, and a column the INSERT does not list, or one left without a value, is an error.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "rocpd/rocpd_schema.hpp"
#include "rocpd/rocpd_tables.hpp"
#include "rocpd/table_insert.hpp"

namespace {

using namespace rocprof::formats::rocpd;

constexpr const char* test_uuid = "0190a1b2_c3d4_7e5f_8a9b_0c1d2e3f4a5b";
const std::string uuid_suffix = std::string{"_"} + test_uuid;

// Table name (without the uuid suffix) -> declared columns, from the one declaration.
std::map<std::string, std::vector<std::string>> declared_tables() {
  std::map<std::string, std::vector<std::string>> tables;
#define ROCPD_TEST_DECLARED(type, sql_name, COLUMNS)                       \
  tables[std::string{type::table_name}] = {std::begin(type::column_names), \
                                           std::end(type::column_names)};
  ROCPD_TABLES(ROCPD_TEST_DECLARED)
#undef ROCPD_TEST_DECLARED
  return tables;
}

// Runs a query and returns the first column of every row as text.
std::vector<std::string> column_of(sqlite3* db, const std::string& sql, int column = 0) {
  std::vector<std::string> rows;
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK)
      << sql << ": " << sqlite3_errmsg(db);
  while (stmt != nullptr && sqlite3_step(stmt) == SQLITE_ROW) {
    const auto* text = sqlite3_column_text(stmt, column);
    rows.emplace_back(text != nullptr ? reinterpret_cast<const char*>(text) : "NULL");
  }
  sqlite3_finalize(stmt);
  return rows;
}

class rocpd_tables : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.open(":memory:"));
    ASSERT_TRUE(ROCPD_EXEC(db_, expand_schema(rocpd_tables_sql, test_uuid, "guid-1")))
        << db_.error();
  }
  database db_;
};

TEST_F(rocpd_tables, every_declaration_matches_the_schema_sql_column_by_column) {
  const auto tables = declared_tables();
  ASSERT_EQ(tables.size(), 21u);  // AMD's 20 and the rocpd_pc_sample extension
  for (const auto& [name, columns] : tables) {
    const auto actual =
        column_of(db_.handle(), "PRAGMA table_info(\"" + name + uuid_suffix + "\")", 1);
    EXPECT_EQ(actual, columns) << name;
  }
}

TEST_F(rocpd_tables, every_table_of_the_schema_sql_is_declared) {
  const auto tables = declared_tables();
  const auto created = column_of(db_.handle(),
                                 "SELECT name FROM sqlite_master WHERE type = 'table' AND name "
                                 "LIKE 'rocpd%' ORDER BY name");
  EXPECT_EQ(created.size(), tables.size());
  for (const auto& table : created) {
    ASSERT_GT(table.size(), uuid_suffix.size());
    EXPECT_EQ(table.substr(table.size() - uuid_suffix.size()), uuid_suffix);
    EXPECT_EQ(tables.count(table.substr(0, table.size() - uuid_suffix.size())), 1u) << table;
  }
}

using region_col = region_table::column;

TEST_F(rocpd_tables, rows_bound_by_column_name_land_in_their_columns) {
  {
    table_insert<region_table> regions{
        db_,
        uuid_suffix,
        {region_col::id, region_col::nid, region_col::pid, region_col::tid, region_col::start,
         region_col::end, region_col::name_id, region_col::event_id},
        2};
    for (int64_t i = 1; i <= 3; ++i)  // values in another order than the columns
      regions.i64(region_col::event_id, 100 + i)
          .i64(region_col::name_id, 7)
          .u64(region_col::end, 2000 + static_cast<uint64_t>(i))
          .u64(region_col::start, 1000 + static_cast<uint64_t>(i))
          .i64(region_col::tid, 11)
          .i64(region_col::pid, 10)
          .i64(region_col::nid, 1)
          .i64(region_col::id, i)
          .end_row();
    regions.flush();
  }
  ASSERT_TRUE(db_.ok()) << db_.error();
  EXPECT_EQ(column_of(db_.handle(),
                      "SELECT id || ':' || nid || ':' || pid || ':' || tid || ':' || "
                      "start || ':' || \"end\" || ':' || name_id || ':' || event_id "
                      "|| ':' || guid || ':' || extdata FROM rocpd_region" +
                          uuid_suffix + " ORDER BY id"),
            (std::vector<std::string>{"1:1:10:11:1001:2001:7:101:guid-1:{}",
                                      "2:1:10:11:1002:2002:7:102:guid-1:{}",
                                      "3:1:10:11:1003:2003:7:103:guid-1:{}"}));
}

TEST_F(rocpd_tables, a_column_the_insert_does_not_list_is_an_error) {
  table_insert<region_table> regions{db_, uuid_suffix, {region_col::id}, 1};
  regions.i64(region_col::id, 1).u64(region_col::start, 5).end_row();
  EXPECT_FALSE(db_.ok());
  EXPECT_NE(db_.error().find("does not list column \"start\""), std::string::npos) << db_.error();
}

TEST_F(rocpd_tables, a_row_without_a_value_for_a_listed_column_is_not_stored) {
  {
    table_insert<string_table> strings{
        db_, uuid_suffix, {string_table::column::id, string_table::column::string}, 1};
    strings.i64(string_table::column::id, 1).end_row();
  }
  EXPECT_FALSE(db_.ok());
  EXPECT_NE(db_.error().find("without a value for \"string\""), std::string::npos) << db_.error();
  EXPECT_EQ(column_of(db_.handle(), "SELECT COUNT(*) FROM rocpd_string" + uuid_suffix),
            std::vector<std::string>{"0"});
}

}  // namespace
