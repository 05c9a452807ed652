// The rocpd schema text (sql/*.sql, embedded at build time) and its template expansion.
#pragma once

#include <cstdint>
#include <string>

namespace rocprof::formats::rocpd {

extern const char* const rocpd_tables_sql;
extern const char* const rocpd_views_sql;
extern const char* const data_views_sql;
extern const char* const summary_views_sql;
extern const char* const rocpd_indexes_sql;
// Extension, created only when host call stacks were recorded (sql/kernel_callstack.sql).
extern const char* const kernel_callstack_sql;

inline constexpr int schema_version = 3;

// Replaces {{uuid}} with "_" + uuid and {{guid}} with guid.
std::string expand_schema(const std::string& text, const std::string& uuid,
                          const std::string& guid);

// UUID v7 text (dashed, lowercase) from the process start time and a seed (machine id, pid,
// ppid, start ticks), deterministic for the same inputs.
std::string make_guid(uint64_t start_ns, const std::string& machine_id, int64_t pid, int64_t ppid);

}  // namespace rocprof::formats::rocpd
