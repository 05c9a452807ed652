// What every subcommand starts from: the input databases opened, the time window resolved
// (--start/--end as % of the span or ns, --start-marker/--end-marker, --inclusive), and output
// names with placeholders expanded.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "options.hpp"
#include "rocprof/formats/rocpd_reader.hpp"

namespace rocprof::rocpd_cli {

using formats::rocpd::database_reader;
using formats::rocpd::time_window;

// Opens every -i input; throws usage_error naming the first that is not a usable database.
std::vector<std::unique_ptr<database_reader>> open_inputs(const rocpd_args& args);

// The window the options ask for (inactive when none). Throws usage_error for a bad value, a
// marker that is missing or ambiguous, or an empty window.
time_window resolve_window(const rocpd_args& args,
                           const std::vector<std::unique_ptr<database_reader>>& inputs);

// -d / -o with rocprofv3's placeholders expanded for this process.
std::string output_directory(const rocpd_args& args);
std::string output_name(const rocpd_args& args);

}  // namespace rocprof::rocpd_cli
