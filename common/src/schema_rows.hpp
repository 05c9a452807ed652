// Shared by the files that hold the schema's rows (schema.cpp, schema_domains.cpp,
// schema_amd.cpp): the row builder and the --help groups.
#pragma once

#include <string_view>
#include <vector>

#include "rocprof/config/schema.hpp"

namespace rocprof::config::rows {

inline constexpr std::string_view k_io = "I/O options";
inline constexpr std::string_view k_aggregate = "Aggregate tracing options";
inline constexpr std::string_view k_basic = "Basic tracing options";
inline constexpr std::string_view k_granular = "Granular tracing options";
inline constexpr std::string_view k_counters = "Counter collection options";
inline constexpr std::string_view k_pc = "PC sampling options";
inline constexpr std::string_view k_post = "Post-processing tracing options";
inline constexpr std::string_view k_summary = "Summary options";
inline constexpr std::string_view k_naming = "Kernel naming options";
inline constexpr std::string_view k_filter = "Filtering options";
inline constexpr std::string_view k_perfetto = "Perfetto-specific options";
inline constexpr std::string_view k_display = "Display options";
inline constexpr std::string_view k_advanced = "Advanced options";
inline constexpr std::string_view k_reserved = "Reserved options";
inline constexpr std::string_view k_att = "Advanced Thread Trace (ATT) options";

inline option_spec row(std::string_view key, std::string_view long_name) {
  option_spec spec;
  spec.key = key;
  spec.long_name = long_name;
  return spec;
}

// The tracing, aggregate and counter rows (the domain table), in --help order.
std::vector<option_spec> domain_rows();
// PC sampling rows and advanced thread trace rows (schema_amd.cpp), in --help order.
std::vector<option_spec> pc_sampling_rows();
std::vector<option_spec> thread_trace_rows();

}  // namespace rocprof::config::rows
