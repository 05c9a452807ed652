// Writes one deterministic synthetic trace through every writer of the registry into a folder:
// a before/after snapshot for refactors of the trace model, the writers or the dispatch.
//
//   write_format_snapshot OUT_DIR
//
// Two builds of the same inputs must give byte-identical files (compare with `cmp` or
// `diff -r`); the synthetic trace covers every record kind, every API domain, counters, several
// threads and agents. Options that change what the writers emit (stats, summaries, kernel
// rename) are all on, so every code path that writes a file is taken.
#include <cstdio>
#include <filesystem>
#include <string>

#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/trace/writer_registry.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  namespace ts = rocprof::test_support;
  namespace tr = rocprof::trace;
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);

  ts::synthetic_options so;
  so.records_per_kind = 300;
  const auto trace = ts::make_synthetic_trace(so);

  tr::output_options options;
  options.output_directory = dir.string();
  options.file_prefix = "snap";
  options.stats = true;
  options.summary = true;
  options.summary_per_domain = true;
  options.summary_groups = {".*_API", "KERNEL_DISPATCH|MEMORY_COPY"};
  options.summary_output = "summary.txt";
  options.kernel_rename = true;
  int status = 0;
  for (const auto& name : tr::writer_names()) {
    std::string error;
    auto w = tr::make_writer(name, options, &error);
    if (w == nullptr) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), error.c_str());
      status = 1;
      continue;
    }
    const auto result = ts::write_synthetic_trace(*w, trace, 97);
    if (!result.empty()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), result.c_str());
      status = 1;
    }
  }
  return status;
}
