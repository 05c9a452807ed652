// The COUNTER_COLLECTION SUMMARY table of -S / -D (ours: rocprofv3's summary has no counter
// rows): per kernel and counter, how many dispatches were counted and the minimum, average and
// maximum of the per-dispatch values. Separate from the writer so golden tests check the text.
#pragma once

#include <string>
#include <vector>

#include "common/counter_stats.hpp"

namespace rocprof::formats::summary {

// "\n<indent>ROCPROFV3 COUNTER_COLLECTION SUMMARY:\n\n", header, divider, one row per entry,
// a blank line; every line starts with `indent`. Empty text for no rows.
std::string render_counter_table(const std::vector<counter_stats_row>& rows,
                                 const std::string& indent);

}  // namespace rocprof::formats::summary
