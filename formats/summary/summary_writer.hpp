#pragma once

#include <memory>

#include "rocprof/trace/writer.hpp"

namespace rocprof::formats::summary {

// Prints the -S / -D / --summary-groups tables at finish(). options.summary_output: "stdout",
// "stderr" (really stderr: rocprofv3 sends it to stdout by mistake, §15.3), or a name written to
// <dir>/<prefix>_<name>.txt without the 4-space indent.
std::unique_ptr<trace::writer> make_summary_writer(const trace::output_options& options);

}  // namespace rocprof::formats::summary
