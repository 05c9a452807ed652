// The PC-sampling hot-spot report: per kernel, the top stall reasons (warp states) with their
// share of the kernel's samples, the top source lines and the top instructions by samples. Written
// to <prefix>_pc_sampling_hotspots.csv; with a summary option (-S, -D, --summary-groups) also
// printed where the summary goes. Reads pc_sample records (and the kernel symbols); with host
// call stacks (--kernel-host-callstack) also the kernel dispatches, for the launch sites.
// `rocpd summary` prints the same report of a database's samples (apps/rocpd/src/summary.cpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rocprof/trace/model.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::formats::hotspots {

// One kernel's hot spots, ranked.
struct ranked {
  std::string name;
  uint64_t samples = 0;
  double percent = 0.0;  // of the kernel's samples
};
struct kernel_hotspots {
  std::string kernel;
  uint64_t kernel_id = 0;
  uint64_t samples = 0;
  std::vector<ranked> reasons;    // top stall reasons, most samples first
  std::vector<ranked> locations;  // top source lines (or code object + offset), most first
  // Top instructions whose text is known (NVIDIA: SASS from nvdisasm), named
  // `offset  text  (file:line)`; empty when no sample has instruction text.
  std::vector<ranked> instructions;
  // --kernel-host-callstack: where the kernel was launched from (launch_sites.hpp), by
  // dispatches (percent of the kernel's dispatches with a stack); empty without stacks.
  std::vector<ranked> launch_sites;
};

// Builds the report of a set of samples (top `limit` per list), kernels by samples.
std::vector<kernel_hotspots> build_hotspots(const trace::trace_definitions& defs,
                                            trace::record_span<trace::pc_sample_record> samples,
                                            const trace::output_options& options, size_t limit);

// The terminal form.
std::string render_hotspots(const std::vector<kernel_hotspots>& report);

std::unique_ptr<trace::writer> make_pc_hotspots_writer(const trace::output_options& options);

}  // namespace rocprof::formats::hotspots
