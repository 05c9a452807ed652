// A "live run" with PC samples for check_rocpd_pc_samples.py: no backend on this machine
// produces PC samples through the CLI (the fake libcupti has no PC sampling), so the live run's
// own writers (csv, json, rocpd, pc_hotspots, pftrace, as libtool's output stage creates them)
// write a synthetic trace that holds the three shapes of PC sample: AMD host-trap samples (the
// synthetic trace's own), AMD stochastic samples (one per sample, with timestamp, exec mask, wave
// count) and NVIDIA aggregated stochastic samples (counts per PC and warp state, no per-sample
// detail, only the kernel known). The hot-spot report's terminal form (-S) goes to stdout.
//
// Usage: make_pc_sample_run <output directory> [pid]   (files <dir>/live_*; pid 4242 by default)
#include <cstdio>
#include <cstdlib>
#include <string>

#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace {

using namespace rocprof;
namespace ts = rocprof::test_support;

// The latest dispatch of a kernel: what NVIDIA's continuous sampling can name.
uint64_t latest_dispatch(const ts::synthetic_trace& t, uint64_t kernel_id) {
  uint64_t id = 0;
  for (const auto& k : t.kernels)
    if (k.kernel_id == kernel_id) id = k.dispatch_id;
  return id;
}

void add_stochastic_samples(ts::synthetic_trace& t) {
  auto& d = t.defs;
  const std::string prefix = "ROCPROFILER_PC_SAMPLING_INSTRUCTION_";
  const auto waitcnt = ts::add_string(d, prefix + "NOT_ISSUED_REASON_WAITCNT");
  const auto alu = ts::add_string(d, prefix + "NOT_ISSUED_REASON_ALU_DEPENDENCY");
  const auto none = ts::add_string(d, prefix + "NOT_ISSUED_REASON_NONE");
  const auto valu = ts::add_string(d, prefix + "TYPE_VALU"),
             vmem = ts::add_string(d, prefix + "TYPE_VMEM");
  const auto ls = ts::add_string(d, "long_scoreboard"),
             math = ts::add_string(d, "math_pipe_throttle");
  const auto sel = ts::add_string(d, "selected");
  const auto ld = ts::add_string(d, "LDG.E R2, [R2.64]"),
             ffma = ts::add_string(d, "FFMA R4, R4, R5, R6");
  const auto line30 = ts::add_string(d, "/src/chase.cu:30"),
             line41 = ts::add_string(d, "/src/fma.cu:41");
  const uint64_t gpu = ts::synthetic_gpu_agent_id(0);
  const uint64_t chase = d.kernel_symbols.at(0).kernel_id, fma = d.kernel_symbols.at(1).kernel_id;

  // NVIDIA: aggregated per PC and warp state.
  const auto aggregated = [&](uint64_t kernel, trace::string_id state, trace::string_id reason,
                              trace::string_id ins, trace::string_id line, uint64_t offset,
                              uint64_t n, uint64_t not_issued) {
    auto r = ts::aggregated_pc_sample(gpu, kernel, offset, n, not_issued);
    r.dispatch_id = latest_dispatch(t, kernel);
    r.warp_state = state;
    r.stall_reason = reason;
    r.instruction = ins;
    r.comment = line;
    t.pc_samples.push_back(r);
  };
  aggregated(chase, ls, waitcnt, ld, line30, 0x1e0, 900, 890);
  aggregated(chase, sel, none, ld, line30, 0x1e0, 60, 0);
  aggregated(fma, math, alu, ffma, line41, 0x210, 300, 300);
  aggregated(fma, sel, none, ffma, line41, 0x210, 200, 0);
  aggregated(0, ls, waitcnt, 0, 0, 0x40, 5, 5);  // a kernel CUPTI could not name

  // AMD stochastic: one record per sample, dispatch exact, per-sample detail.
  for (uint64_t i = 0; i < 40; ++i) {
    const auto& k = t.kernels.at(i);
    trace::pc_sample_record r;
    r.method = trace::pc_sample_method::stochastic;
    r.timestamp_ns = k.start_ns + 1 + i % 3;
    r.agent_id = k.agent_id;
    r.dispatch_id = k.dispatch_id;
    r.correlation_internal = k.corr.internal;
    r.kernel_id = k.kernel_id;
    r.code_object_id = 1;
    r.code_object_offset = 0x100 + (i % 8) * 4;
    r.exec_mask = 0xffffffff00000000ull >> (i % 16);
    r.wave_count = static_cast<uint32_t>(1 + i % 6);
    r.wave_issued = i % 3 == 0;
    r.not_issued_count = r.wave_issued ? 0 : 1;
    r.instruction_type = i % 2 ? valu : vmem;
    r.stall_reason = r.wave_issued ? none : (i % 2 ? alu : waitcnt);
    r.instruction = i % 2 ? ffma : ld;
    r.comment = i % 2 ? line41 : line30;
    t.pc_samples.push_back(r);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: %s <output directory> [pid]\n", argv[0]);
    return 2;
  }
  ts::synthetic_options so;
  so.records_per_kind = 200;
  if (argc == 3) so.pid = std::strtoll(argv[2], nullptr, 10);
  auto t = ts::make_synthetic_trace(so);
  add_stochastic_samples(t);
  trace::output_options o;
  o.output_directory = argv[1];
  o.file_prefix = "live";
  o.summary = true;  // the hot-spot report's -S form
  o.summary_output = "stdout";
  for (const char* format : {"csv", "json", "rocpd", "pc_hotspots", "pftrace"}) {
    std::string error;
    auto w = trace::make_writer(format, o, &error);
    if (!w) {
      std::fprintf(stderr, "no %s writer: %s\n", format, error.c_str());
      return 1;
    }
    if (auto e = ts::write_synthetic_trace(*w, t, 61); !e.empty()) {
      std::fprintf(stderr, "%s writer failed: %s\n", format, e.c_str());
      return 1;
    }
  }
  return 0;
}
