// Views of the schema's domain table (the rows that turn collection on; schema.hpp's "domain
// table" fields) that several programs need: the backends it names, the aggregates in expansion
// order, which rows collect, and the name the tool gives a tracing domain in its settings JSON.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rocprof/config/schema.hpp"

namespace rocprof::config {

// A backend plugin that rows name (option_spec::backend): where the CLI finds it and how it
// hands it to the application.
struct backend_spec {
  std::string_view name;       // the plugin file's <name>: librocprofiler-sdk-<name>.so
  std::string_view label;      // for messages ("CUDA backend")
  std::string_view injection;  // variable the CLI sets to the plugin's path when it is wanted
  // The plugin's offline counter entry points, which the CLI calls before the application
  // starts (checking --pmc, --list-avail); empty when the backend has none:
  //   const char* listing(const char* chip, int profiler_type): its counters as JSON;
  //   uint64_t passes(const char* chip, const char* const* names, uint64_t count,
  //                   char* error, uint64_t error_size): hardware passes, 0 when refused;
  //   const char* source(): what the two answer from (library files and versions), so that
  //                   their answers can be kept across runs; "" when unknown. Optional.
  std::string_view counter_listing_entry;
  std::string_view pass_count_entry;
  std::string_view counter_source_entry;
};

// Every backend the table names.
const std::vector<backend_spec>& backends();
const backend_spec* find_backend(std::string_view name);

// Turning the row on collects something: it traces kinds, or collects otherwise (counters,
// thread trace, PC sampling, the Kokkos connector).
bool collects(const option_spec& spec);

// The aggregate rows (those that expand to other options), in rocprofv3's expansion order.
std::vector<const option_spec*> aggregates_in_expansion_order();

// The key of a tracing domain in the tool's settings JSON: its variable without "ROCPROF_",
// lower-cased, as rocprofv3's tool names its configuration fields (ROCPROF_MARKER_API_TRACE ->
// marker_api_trace).
std::string setting_name(const option_spec& spec);

}  // namespace rocprof::config
