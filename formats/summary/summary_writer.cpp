#include "summary/summary_writer.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>

#include "common/counter_stats.hpp"
#include "common/output_file.hpp"
#include "common/trace_stats.hpp"
#include "summary/counter_table.hpp"
#include "summary/device_sample_table.hpp"
#include "summary/summary_table.hpp"

namespace rocprof::formats::summary {
namespace {

using namespace rocprof::trace;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

class summary_writer final : public writer {
 public:
  explicit summary_writer(const output_options& options) : options_{options} {}
  using writer::write;

  void begin(const trace_definitions& defs) override {
    defs_ = &defs;
    stats_.emplace(defs, options_);
    if (!defs.counters.empty()) counters_.emplace(defs, options_);
    dropped_ = defs.dropped_records;
  }
  void write(record_span<api_record> r) override { stats_->add(r); }
  void write(record_span<kernel_dispatch_record> r) override {
    stats_->add(r);
    if (counters_) counters_->add(r);
  }
  void write(record_span<memory_copy_record> r) override { stats_->add(r); }
  void write(record_span<memory_set_record> r) override { stats_->add(r); }
  void write(record_span<memory_allocation_record> r) override { stats_->add(r); }
  void write(record_span<scratch_memory_record> r) override { stats_->add(r); }
  // Counter values have no duration, so rocprofv3's tables have no row for them; they get a
  // table of their own (counter_table.hpp).
  void write(record_span<counter_value_record> r) override {
    if (counters_) counters_->add(r);
  }
  void write(record_span<counter_dispatch_record> r) override {
    if (counters_) counters_->add(r);
  }
  void write(record_span<device_counter_sample_record> r) override { samples_.add(r); }
  void write(record_span<pc_sample_record> r) override { ignore_records(r); }

  std::string finish() override {
    if (!stats_) return "summary writer finished before begin()";
    const bool wanted =
        options_.summary || options_.summary_per_domain || !options_.summary_groups.empty();
    const bool tables = options_.summary || options_.summary_per_domain;
    const bool with_counters = counters_ && !counters_->empty() && tables;
    const bool with_samples = !samples_.empty() && tables;
    if (!wanted || (stats_->empty() && !with_counters && !with_samples)) return {};
    const auto dest = lower(options_.summary_output);
    const bool to_stream = dest.empty() || dest == "stdout" || dest == "stderr";
    std::string error;
    const std::string indent = to_stream ? "    " : "";
    std::string counter_table =
        with_counters ? render_counter_table(counters_->rows(), indent) : std::string();
    if (with_samples) counter_table += samples_.render(*defs_, options_.agent_index, indent);
    auto text = render_summary(*stats_, options_, indent, &error, counter_table);
    // The totals above miss what was lost before it reached the trace: say how much.
    if (dropped_ != 0)
      text += (to_stream ? "    " : "") + std::to_string(dropped_) +
              " records were dropped and are not counted above\n";
    if (to_stream) {
      std::FILE* stream = dest == "stdout" ? stdout : stderr;
      std::fwrite(text.data(), 1, text.size(), stream);
      std::fflush(stream);
    } else {
      output_file f{options_.path_for(options_.summary_output, "txt")};
      f.write(text);
      auto e = f.close();
      if (error.empty()) error = e;
    }
    return error;
  }

 private:
  output_options options_;
  std::optional<trace_stats> stats_;
  std::optional<counter_stats> counters_;  // when the run collected counters
  uint64_t dropped_ = 0;
  device_sample_stats samples_;            // --spm samples
  const trace_definitions* defs_ = nullptr;
};

}  // namespace

std::unique_ptr<writer> make_summary_writer(const output_options& options) {
  return std::make_unique<summary_writer>(options);
}

}  // namespace rocprof::formats::summary
