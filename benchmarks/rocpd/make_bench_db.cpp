// Writes a rocpd database of N API and marker records (every API domain in turn, ranges and
// marks) with the rocpd writer, streaming synthetic records in batches so that any size fits in
// bounded memory. The input of bench_rocpd.py.
//
// Usage: make_bench_db --records N --out DIR   (writes DIR/bench_results.db)
#include <cstdio>
#include <cstdlib>
#include <string>

#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/trace/writer_registry.hpp"

int main(int argc, char** argv) {
  size_t records = 1'000'000;
  std::string out = ".";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--records") records = std::strtoull(argv[i + 1], nullptr, 10);
    if (flag == "--out") out = argv[i + 1];
  }
  namespace ts = rocprof::test_support;
  ts::synthetic_options so;
  so.records_per_kind = records;
  const auto defs = ts::make_synthetic_definitions(so);
  rocprof::trace::output_options o;
  o.output_directory = out;
  o.file_prefix = "bench";
  std::string error;
  auto w = rocprof::trace::make_writer("rocpd", o, &error);
  if (!w) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  w->begin(defs);
  std::vector<rocprof::trace::api_record> batch;
  constexpr size_t batch_size = 100'000;
  for (size_t first = 0; first < records; first += batch_size) {
    batch.clear();
    ts::generate_api(so, defs, first, std::min(batch_size, records - first), batch);
    w->write(rocprof::trace::make_span(batch));
  }
  error = w->finish();
  if (!error.empty()) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  std::printf("%s\n", o.path_for("results", "db").c_str());
  return 0;
}
