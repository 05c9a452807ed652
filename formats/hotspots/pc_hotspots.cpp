#include "hotspots/pc_hotspots.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <optional>

#include "common/kernel_names.hpp"
#include "common/output_file.hpp"
#include "hotspots/launch_sites.hpp"

namespace rocprof::formats::hotspots {
namespace {

using namespace rocprof::trace;

struct kernel_tally {
  uint64_t samples = 0;
  std::map<std::string, uint64_t> reasons;
  std::map<std::string, uint64_t> locations;
  // Samples per instruction (code object, offset) whose text is known, with that text.
  std::map<std::pair<uint64_t, uint64_t>, std::pair<std::string, uint64_t>> instructions;
};

std::vector<ranked> top(const std::map<std::string, uint64_t>& counts, uint64_t total,
                        size_t limit) {
  std::vector<ranked> out;
  for (const auto& [name, n] : counts)
    out.push_back({name, n, total != 0 ? 100.0 * static_cast<double>(n) / total : 0.0});
  std::stable_sort(out.begin(), out.end(),
                   [](const ranked& a, const ranked& b) { return a.samples > b.samples; });
  if (out.size() > limit) out.resize(limit);
  return out;
}

// The source line when known, else the code object and offset (SASS / ISA position) with the
// instruction's text when known.
std::string location_of(const trace_definitions& defs, const pc_sample_record& r) {
  const std::string_view source = defs.str(r.comment);
  if (!source.empty()) return std::string(source);
  char text[64];
  std::snprintf(text, sizeof(text), "code object %" PRIu64 " +0x%" PRIx64, r.code_object_id,
                r.code_object_offset);
  const std::string_view instruction = defs.str(instruction_of(defs, r));
  return instruction.empty() ? std::string(text)
                             : text + std::string("  ") + std::string(instruction);
}

// An instruction row: `0x01c0  FFMA R4, R7, R4, R6  (/src/app.cu:30)`.
std::string instruction_row(const trace_definitions& defs, const pc_sample_record& r,
                            std::string_view instruction) {
  char offset[32];
  std::snprintf(offset, sizeof(offset), "0x%04" PRIx64 "  ", r.code_object_offset);
  std::string row = offset + std::string(instruction);
  const std::string_view source = defs.str(r.comment);
  if (!source.empty()) row += "  (" + std::string(source) + ")";
  return row;
}

// The top `limit` instructions by samples (their rows as the names).
std::vector<ranked> top_instructions(
    const std::map<std::pair<uint64_t, uint64_t>, std::pair<std::string, uint64_t>>& counts,
    uint64_t total, size_t limit) {
  std::map<std::string, uint64_t> by_row;
  for (const auto& entry : counts)
    by_row[entry.second.first] += entry.second.second;
  return top(by_row, total, limit);
}

std::string csv_quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

class pc_hotspots_writer final : public writer {
 public:
  explicit pc_hotspots_writer(const output_options& options) : options_{options} {}
  using writer::write;

  void begin(const trace_definitions& defs) override {
    defs_ = &defs;
    for (const auto& k : defs.kernel_symbols)
      demangled_.emplace(k.kernel_id, k.demangled_name);
  }
  // PC samples make the report; dispatches only name launch sites (with host call stacks).
  void write(record_span<api_record> r) override { ignore_records(r); }
  void write(record_span<kernel_dispatch_record> r) override {
    if (defs_->launch_callstacks.empty()) return ignore_records(r);
    for (const auto& d : r) {
      const host_callstack_info* stack =
          defs_->host_callstack(defs_->callstack_of(d.corr.internal));
      if (stack == nullptr) continue;
      auto name = demangled_.find(d.kernel_id);
      kernel_tally& k = launches_[d.kernel_id];
      k.samples += 1;
      k.locations[launch_site(*stack, name != demangled_.end() ? name->second : "")] += 1;
    }
  }
  void write(record_span<memory_copy_record> r) override { ignore_records(r); }
  void write(record_span<memory_set_record> r) override { ignore_records(r); }
  void write(record_span<memory_allocation_record> r) override { ignore_records(r); }
  void write(record_span<scratch_memory_record> r) override { ignore_records(r); }
  void write(record_span<counter_value_record> r) override { ignore_records(r); }
  void write(record_span<counter_dispatch_record> r) override { ignore_records(r); }
  void write(record_span<device_counter_sample_record> r) override { ignore_records(r); }
  void write(record_span<pc_sample_record> r) override {
    samples_.insert(samples_.end(), r.begin(), r.end());
  }

  std::string finish() override {
    if (defs_ == nullptr || samples_.empty()) return {};
    auto report = build_hotspots(*defs_, make_span(samples_), options_, 5);
    for (auto& k : report) {
      auto launches = launches_.find(k.kernel_id);
      if (launches != launches_.end())
        k.launch_sites = top(launches->second.locations, launches->second.samples, 5);
    }
    output_file f{options_.path_for("pc_sampling_hotspots", "csv")};
    f.write(
        "\"Kernel_Name\",\"Kernel_Id\",\"Kernel_Samples\",\"Kind\",\"Rank\",\"Name\","
        "\"Samples\",\"Percentage\"\n");
    for (const auto& k : report) {
      auto rows = [&](const char* kind, const std::vector<ranked>& list) {
        for (size_t i = 0; i < list.size(); ++i) {
          char tail[96];
          std::snprintf(tail, sizeof(tail), ",%" PRIu64 ",%.2f\n", list[i].samples,
                        list[i].percent);
          f.write(csv_quoted(k.kernel) + "," + std::to_string(k.kernel_id) + "," +
                  std::to_string(k.samples) + "," + csv_quoted(kind) + "," + std::to_string(i + 1) +
                  "," + csv_quoted(list[i].name) + tail);
        }
      };
      rows("stall_reason", k.reasons);
      rows("location", k.locations);
      rows("instruction", k.instructions);
      rows("launch_site", k.launch_sites);  // Samples: dispatches launched from there
    }
    std::string error = f.close();
    const bool wanted =
        options_.summary || options_.summary_per_domain || !options_.summary_groups.empty();
    if (wanted) {
      const std::string text = render_hotspots(report);
      std::FILE* stream = options_.summary_output == "stdout" ? stdout : stderr;
      std::fwrite(text.data(), 1, text.size(), stream);
      std::fflush(stream);
    }
    return error;
  }

 private:
  output_options options_;
  const trace_definitions* defs_ = nullptr;
  std::vector<pc_sample_record> samples_;
  std::map<uint64_t, std::string_view> demangled_;  // kernel id -> demangled name
  std::map<uint64_t, kernel_tally> launches_;       // per kernel: dispatches per launch site
};

}  // namespace

std::vector<kernel_hotspots> build_hotspots(const trace_definitions& defs,
                                            record_span<pc_sample_record> samples,
                                            const output_options& options, size_t limit) {
  std::map<uint64_t, kernel_tally> by_kernel;
  for (const auto& r : samples) {
    kernel_tally& k = by_kernel[r.kernel_id];
    k.samples += r.sample_count;
    // NVIDIA's own state name when there is one (it says more than the mapped AMD reason).
    const std::string_view state = defs.str(r.warp_state);
    const std::string_view reason = !state.empty() ? state : defs.str(r.stall_reason);
    k.reasons[std::string(reason.empty() ? "(none)" : reason)] += r.sample_count;
    k.locations[location_of(defs, r)] += r.sample_count;
    const std::string_view instruction = defs.str(instruction_of(defs, r));
    if (!instruction.empty()) {
      auto& slot = k.instructions[{r.code_object_id, r.code_object_offset}];
      if (slot.first.empty()) slot.first = instruction_row(defs, r, instruction);
      slot.second += r.sample_count;
    }
  }
  const kernel_names names(defs, options);
  std::vector<kernel_hotspots> out;
  for (const auto& [id, k] : by_kernel) {
    kernel_hotspots h;
    h.kernel_id = id;
    h.kernel = id != 0 ? std::string(names.name(id, 0)) : "(unknown kernel)";
    h.samples = k.samples;
    h.reasons = top(k.reasons, k.samples, limit);
    h.locations = top(k.locations, k.samples, limit);
    h.instructions = top_instructions(k.instructions, k.samples, limit);
    out.push_back(std::move(h));
  }
  std::stable_sort(out.begin(), out.end(), [](const kernel_hotspots& a, const kernel_hotspots& b) {
    return a.samples > b.samples;
  });
  return out;
}

namespace {

// `heading` and one line per entry: share, name, samples.
void append_ranked(std::string& text, const char* heading, const std::vector<ranked>& list) {
  text += heading;
  char line[512];
  for (const auto& r : list) {
    std::snprintf(line, sizeof(line), "      %6.2f%%  %s  (%" PRIu64 ")\n", r.percent,
                  r.name.c_str(), r.samples);
    text += line;
  }
}

}  // namespace

std::string render_hotspots(const std::vector<kernel_hotspots>& report) {
  std::string text = "\nPC SAMPLING HOT SPOTS (share of each kernel's samples)\n";
  char line[512];
  for (const auto& k : report) {
    std::snprintf(line, sizeof(line), "\n  %s  (%" PRIu64 " samples)\n", k.kernel.c_str(),
                  k.samples);
    text += line;
    text += "    top stall reasons:\n";
    for (const auto& r : k.reasons) {
      std::snprintf(line, sizeof(line), "      %6.2f%%  %-28s %" PRIu64 "\n", r.percent,
                    r.name.c_str(), r.samples);
      text += line;
    }
    append_ranked(text, "    top source lines / instructions:\n", k.locations);
    if (!k.instructions.empty()) append_ranked(text, "    top instructions:\n", k.instructions);
    if (!k.launch_sites.empty())
      append_ranked(text, "    top launch sites (by dispatches):\n", k.launch_sites);
  }
  return text;
}

std::unique_ptr<writer> make_pc_hotspots_writer(const output_options& options) {
  return std::make_unique<pc_hotspots_writer>(options);
}

}  // namespace rocprof::formats::hotspots
