// The DEVICE_COUNTER_SAMPLES SUMMARY table of -S / -D (ours; --spm samples): per agent and
// counter, how many samples, their minimum, average and maximum, and the fraction of samples
// above zero (how much of the run the agent was busy by that counter).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "rocprof/trace/model.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::formats::summary {

class device_sample_stats {
 public:
  void add(trace::record_span<trace::device_counter_sample_record> records);
  bool empty() const { return rows_.empty(); }
  // "\n<indent>ROCPROFV3 DEVICE_COUNTER_SAMPLES SUMMARY:\n\n", header, one row per (agent,
  // counter) in agent then counter order, a blank line. Empty text without samples.
  std::string render(const trace::trace_definitions& defs, trace::agent_index_mode mode,
                     const std::string& indent) const;

 private:
  struct row {
    uint64_t samples = 0, above_zero = 0;
    double min = 0, max = 0, sum = 0;
  };
  std::map<std::pair<uint64_t, uint64_t>, row> rows_;  // (agent, counter)
};

}  // namespace rocprof::formats::summary
