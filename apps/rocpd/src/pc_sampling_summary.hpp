// `rocpd summary`'s PC-sampling section: the live run's hot-spot report (per kernel, its samples,
// top stall reasons and top source lines / instructions with their shares), built from the
// PC samples of each process read back from the database. A sink among the summary's writers.
#pragma once

#include <string>
#include <vector>

#include "result_table.hpp"
#include "rocprof/formats/pc_hotspots.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::rocpd_cli {

class pc_sampling_summary final : public trace::writer {
 public:
  using writer::write;

  void begin(const trace::trace_definitions& defs) override;
  // Every kind but PC samples is ignored: the other tables come from the summary collector.
#define ROCPD_PC_SUMMARY_WRITE(TYPE, NAME)                 \
  void write(trace::record_span<trace::TYPE> r) override { \
    take(r);                                               \
  }
  ROCPROF_TRACE_RECORD_KINDS(ROCPD_PC_SUMMARY_WRITE)
#undef ROCPD_PC_SUMMARY_WRITE
  // Closes the process begun last: its samples become its report.
  std::string finish() override;

  bool empty() const {
    return processes_.empty();
  }
  // Console: the live `-S` text per process (a process line above each when there are several).
  std::string render() const;
  // The table form (formats other than console): the hot-spot CSV's columns, preceded by
  // ProcessID and Hostname when there are several processes.
  result_table table(const std::string& name) const;

 private:
  template <typename T>
  void take(trace::record_span<T> r) {
    ignore_records(r);
  }
  void take(trace::record_span<trace::pc_sample_record> r) {
    samples_.insert(samples_.end(), r.begin(), r.end());
  }

  struct process_report {
    int64_t pid = 0;
    std::string hostname;
    std::vector<formats::hotspots::kernel_hotspots> kernels;
  };
  const trace::trace_definitions* defs_ = nullptr;
  std::vector<trace::pc_sample_record> samples_;
  std::vector<process_report> processes_;  // those with samples, in input order
};

}  // namespace rocprof::rocpd_cli
