// Name -> factory table for --output-format and the other outputs built from the trace model.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rocprof/trace/writer.hpp"

namespace rocprof::trace {

// Known names (case-insensitive): "rocpd", "csv" (trace CSVs, agent_info.csv and, with
// options.stats, the *_stats.csv files), "json", "pftrace", "otf2", "summary" (-S/-D/
// --summary-groups tables), "config" (<prefix>_config.json for --output-config).
// Returns nullptr and sets *error for an unknown name.
std::unique_ptr<writer> make_writer(std::string_view name, const output_options& options,
                                    std::string* error);

std::vector<std::string> writer_names();

}  // namespace rocprof::trace
