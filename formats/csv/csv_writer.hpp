#pragma once

#include <memory>

#include "rocprof/trace/writer.hpp"

namespace rocprof::formats::csv {

// Trace CSVs (one file per domain that has rows), counter_collection.csv, agent_info.csv (when
// any domain had rows) and, with options.stats, the stats files. memory_set_trace.csv is ours:
// "Kind","Agent_Id","Queue_Id","Stream_Id","Thread_Id","Address","Size","Value",
// "Correlation_Id","Start_Timestamp","End_Timestamp".
std::unique_ptr<trace::writer> make_csv_writer(const trace::output_options& options);

}  // namespace rocprof::formats::csv
