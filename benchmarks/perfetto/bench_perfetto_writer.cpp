// Perfetto writer throughput: kernel slices without annotations (the size goal: <= 60 bytes per
// slice), with annotations, and the mixed synthetic trace. Records are generated in fixed-size
// batches outside the timed region, so the numbers are the writer's. The baseline writes the
// same records raw (fwrite of the structs), i.e. the cost of the I/O alone.
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "perfetto/perfetto_writer.hpp"
#include "rocprof/test_support/synthetic_trace.hpp"

namespace {

namespace ts = rocprof::test_support;
namespace tr = rocprof::trace;

constexpr size_t batch = 4096;

std::filesystem::path bench_dir() {
  const auto dir =
      std::filesystem::temp_directory_path() / ("rocprof_bench_pft_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

tr::output_options options() {
  tr::output_options o;
  o.output_directory = bench_dir().string();
  o.file_prefix = "bench";
  return o;
}

// Kernel slices only: state.range(0) records, annotations per state.range(1).
void BM_kernel_slices(benchmark::State& state) {
  ts::synthetic_options so;
  so.records_per_kind = static_cast<size_t>(state.range(0));
  const auto defs = ts::make_synthetic_definitions(so);
  std::vector<tr::kernel_dispatch_record> records;
  ts::generate_kernels(so, 0, batch, records);
  const size_t n = so.records_per_kind;
  uint64_t bytes = 0, empty_bytes = 0;
  const auto path = options().path_for("results", "pftrace");
  {
    // The fixed cost (sequence, process and thread descriptors) is measured once and taken out
    // of the per-slice size.
    tr::perfetto_writer_options popts;
    popts.debug_annotations = state.range(1) != 0;
    auto w = tr::make_perfetto_writer(options(), popts);
    w->begin(defs);
    w->finish();
    empty_bytes = std::filesystem::file_size(path);
  }
  for (auto _ : state) {
    tr::perfetto_writer_options popts;
    popts.debug_annotations = state.range(1) != 0;
    auto w = tr::make_perfetto_writer(options(), popts);
    w->begin(defs);
    for (size_t done = 0; done < n; done += batch) {
      const size_t count = std::min(batch, n - done);
      // Shift the same batch in time so tracks do not restart at the same timestamps.
      state.PauseTiming();
      for (auto& r : records) {
        r.start_ns += 4096 * 2000;
        r.end_ns += 4096 * 2000;
      }
      state.ResumeTiming();
      w->write(tr::record_span<tr::kernel_dispatch_record>{records.data(), count});
    }
    if (!w->finish().empty()) state.SkipWithError("finish failed");
    bytes = std::filesystem::file_size(path);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  state.counters["bytes_per_slice"] =
      static_cast<double>(bytes - empty_bytes) / static_cast<double>(n);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["peak_rss_mib"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  state.counters["slices_per_s"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}
// 10 M slices show that memory does not grow with the record count (peak_rss_mib).
BENCHMARK(BM_kernel_slices)
    ->Args({1'000'000, 0})
    ->Args({1'000'000, 1})
    ->Args({10'000'000, 0})
    ->Unit(benchmark::kMillisecond);

// Baseline: the same number of kernel records written raw.
void BM_baseline_raw_records(benchmark::State& state) {
  ts::synthetic_options so;
  std::vector<tr::kernel_dispatch_record> records;
  ts::generate_kernels(so, 0, batch, records);
  const size_t n = static_cast<size_t>(state.range(0));
  const auto path = bench_dir() / "raw.bin";
  for (auto _ : state) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    for (size_t done = 0; done < n; done += batch)
      std::fwrite(records.data(), sizeof(records[0]), std::min(batch, n - done), f);
    std::fclose(f);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  state.counters["bytes_per_record"] = sizeof(tr::kernel_dispatch_record);
}
BENCHMARK(BM_baseline_raw_records)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// The mixed synthetic trace (every kind, annotations on): records of all kinds per second.
void BM_mixed_trace(benchmark::State& state) {
  ts::synthetic_options so;
  so.records_per_kind = static_cast<size_t>(state.range(0));
  const auto trace = ts::make_synthetic_trace(so);
  const size_t records = trace.api.size() + trace.kernels.size() + trace.memory_copies.size() +
                         trace.memory_sets.size() + trace.memory_allocations.size() +
                         trace.scratch_memory.size() + trace.counter_values.size() +
                         trace.device_counter_samples.size() + trace.pc_samples.size();
  for (auto _ : state) {
    auto w = tr::make_perfetto_writer(options());
    if (!ts::write_synthetic_trace(*w, trace, batch).empty()) state.SkipWithError("failed");
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * records));
}
BENCHMARK(BM_mixed_trace)->Arg(100'000)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::error_code ec;
  std::filesystem::remove_all(bench_dir(), ec);  // the traces written (500 MB for 10 M slices)
  return 0;
}
