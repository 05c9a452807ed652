// Writes two rocpd databases from synthetic traces of two processes (different pids, so
// different GUIDs) for check_amd_reader.py, and beside each one a JSON file of what the trace
// holds, computed from the in-memory records (not from the database): record counts per
// category, marker messages, kernel display names and durations.
//
// Usage: make_synthetic_dbs <output directory>
// Prints one line per database: <db path> <expectations path>.
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace {

using namespace rocprof;
namespace ts = rocprof::test_support;
using ojson = nlohmann::ordered_json;

bool is_marker(trace::api_domain d) {
  return d == trace::api_domain::marker_core_range || d == trace::api_domain::marker_control ||
         d == trace::api_domain::marker_name;
}

ojson expectations(const ts::synthetic_trace& t) {
  const auto& d = t.defs;
  std::map<std::string, uint64_t> regions, samples, region_ns, marker_names, marker_messages;
  for (const auto& r : t.api) {
    const std::string category{trace::info(r.domain).category};
    if (r.start_ns == r.end_ns) {
      ++samples[category];
    } else {
      ++regions[category];
      region_ns[category] += r.end_ns - r.start_ns;
    }
    if (!is_marker(r.domain)) continue;
    // The name a reader shows for a marker: its message, else the API name.
    const std::string message{d.str(r.message)};
    ++marker_names[message.empty() ? std::string{d.str(r.operation)} : message];
    if (!message.empty()) ++marker_messages[message];
  }
  std::map<uint64_t, std::string> display;
  for (const auto& k : d.kernel_symbols)
    display[k.kernel_id] = k.display_name;
  std::map<std::string, uint64_t> kernel_calls, kernel_ns;
  uint64_t kernel_total = 0;
  for (const auto& k : t.kernels) {
    ++kernel_calls[display[k.kernel_id]];
    kernel_ns[display[k.kernel_id]] += k.end_ns - k.start_ns;
    kernel_total += k.end_ns - k.start_ns;
  }
  // Device counter samples are rocpd samples of their own category (formats/rocpd/README.md).
  if (!t.device_counter_samples.empty())
    samples["DEVICE_COUNTER_SAMPLE"] += t.device_counter_samples.size();
  ojson e;
  e["pid"] = d.process.pid;
  e["regions_by_category"] = regions;
  e["samples_by_category"] = samples;
  e["region_ns_by_category"] = region_ns;
  e["marker_names"] = marker_names;
  e["marker_messages"] = marker_messages;
  e["kernel_calls"] = kernel_calls;
  e["kernel_ns"] = kernel_ns;
  e["kernel_total_ns"] = kernel_total;
  e["kernels"] = t.kernels.size();
  e["memory_copies"] = t.memory_copies.size();
  e["memory_sets"] = t.memory_sets.size();
  e["memory_allocations"] = t.memory_allocations.size();
  e["scratch_memory"] = t.scratch_memory.size();
  e["counter_values"] = t.counter_values.size();
  e["agents"] = d.agents.size();
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <output directory>\n", argv[0]);
    return 2;
  }
  for (int64_t pid : {4242, 5353}) {
    ts::synthetic_options so;
    so.records_per_kind = 400;
    so.pid = pid;
    so.base_ns = static_cast<uint64_t>(pid) * 1'000'000;
    const auto t = ts::make_synthetic_trace(so);
    trace::output_options o;
    o.output_directory = argv[1];
    o.file_prefix = "synthetic_" + std::to_string(pid);
    std::string error;
    auto w = trace::make_writer("rocpd", o, &error);
    if (!w) {
      std::fprintf(stderr, "no rocpd writer: %s\n", error.c_str());
      return 1;
    }
    if (auto e = ts::write_synthetic_trace(*w, t, 97); !e.empty()) {
      std::fprintf(stderr, "rocpd writer failed: %s\n", e.c_str());
      return 1;
    }
    const auto db = o.path_for("results", "db");
    const auto expect = o.path_for("expect", "json");
    std::ofstream(expect) << expectations(t).dump(1) << '\n';
    std::printf("%s %s\n", db.c_str(), expect.c_str());
  }
  return 0;
}
