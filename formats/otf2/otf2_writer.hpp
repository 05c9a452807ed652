// OTF2 trace writer: the archive <prefix>_results (anchor <prefix>_results.otf2, definitions
// <prefix>_results.def, event directory <prefix>_results/), through the system OTF2 3.x library
// (--output-format otf2). Layout follows rocprofv3 (rocprofv3-facts.md §7); see
// formats/otf2/README.md for what differs and why.
#pragma once

#include <cstddef>
#include <memory>

#include "rocprof/trace/writer.hpp"

namespace rocprof::trace {

struct otf2_writer_options {
  // Events are sorted per location before writing; intervals beyond this many bytes (24 per
  // record, counted as reserved capacity) are sorted and spilled to a temporary file in the
  // output directory. 16 MiB (700 k records) keeps peak RSS flat from 1 M records on; the spill
  // file is written and read once, sequentially, so a smaller budget costs little time.
  size_t memory_budget = size_t{16} << 20;
};

std::unique_ptr<writer> make_otf2_writer(const output_options& options);
std::unique_ptr<writer> make_otf2_writer(const output_options& options,
                                         const otf2_writer_options& otf2_options);

}  // namespace rocprof::trace
