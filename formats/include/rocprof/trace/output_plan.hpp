// What a process's outputs are and how they are made from the trace model: the writers (by
// make_writer name, in order), their options (paths already expanded for that process) and the
// --minimum-output-data threshold. The tool runs its plan at its end; the rocprofv3 launcher runs
// the plan a process left in its journal (journal.hpp) when the process did not get to it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "rocprof/trace/model.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::trace {

struct output_plan {
  std::vector<std::string> writers;  // make_writer names; empty: no output at all
  output_options options;
  uint64_t minimum_output_bytes = 0;
};

struct output_report {
  std::vector<std::string> written;  // writer names that finished without error
  std::vector<std::string> errors;   // one line each
  bool skipped = false;              // nothing recorded, or below --minimum-output-data
};

// Hands every record to the writers (each batch to all of them), kind by kind in recording
// order within a kind.
using record_replay = std::function<void(const std::vector<writer*>&)>;

// Runs the plan: trace outputs only when `records` > 0 and their approximate size reaches the
// minimum (rocprofv3's rule), the "config" writer regardless. Each writer gets
// begin(definitions), the records (replay), then finish(). Files are staged (staged_file.hpp):
// each is complete or absent.
output_report run_output_plan(const output_plan& plan, const trace_definitions& defs,
                              uint64_t records, const record_replay& replay);

// Hands `count` records of `kind`, stored as bytes in the model's layout (any alignment), to
// every writer of `outs`.
void write_record_bytes(record_kind kind, const void* bytes, size_t count,
                        const std::vector<writer*>& outs);

}  // namespace rocprof::trace
