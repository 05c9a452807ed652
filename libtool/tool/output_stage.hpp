// The end of the run: turns the collected definitions and spooled records into every requested
// output. Runs once per process, on the finalizing thread, after the buffers were flushed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collection_period_log.hpp"
#include "rocprof/config/tool_settings.hpp"
#include "rocprof/trace/model.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::tool {

class record_spool;

// The writer names (make_writer names) the settings ask for, in generation order: "config"
// first (--output-config), then the formats of ROCPROF_OUTPUT_FORMAT (their schema words; the
// settings hold the schema's default when none is given), then "summary" (-S, -D or
// --summary-groups).
std::vector<std::string> requested_writers(const config::tool_settings& settings);

// output_options with the output directory and file prefix expanded for this process.
trace::output_options make_output_options(const config::tool_settings& settings);

// The resolved configuration as JSON text (process_info::config_json, <prefix>_config.json):
// rocprofv3's 70 `config` keys in its order, then this tool's own (config_json.cpp).
std::string settings_to_json(const config::tool_settings& settings);

struct output_report {
  std::vector<std::string> written;  // writer names that finished without error
  std::vector<std::string> errors;   // one line each
  bool skipped = false;              // nothing recorded, or below --minimum-output-data
};

// Writes <prefix>_collection_periods.log (ROCPROF_COLLECTION_PERIOD_TESTING); returns an error
// line, or an empty string.
std::string write_period_log(const config::tool_settings& settings,
                             const std::vector<period_window>& windows);

// Runs every requested writer over the definitions and the spooled records.
output_report write_outputs(const config::tool_settings& settings,
                            const trace::trace_definitions& defs, record_spool& spool);

}  // namespace rocprof::tool
