// What the record journal costs per record (issue 14): the tool copies every batch the core
// delivers into the journal's file-backed mappings (the crash-proof store) instead of keeping it
// in memory. This times appending N kernel-dispatch and N API records, in batches as the core's
// buffers deliver them, to
//   * baseline: a memcpy into freshly allocated memory (what an in-memory store does), and
//   * journal:  trace::journal_writer (extent reservation, mapping, publication of each copy),
// and prints ns per record and the ratio journal / baseline, best of --repeat runs each. Times are
// the thread's CPU time (user + system: page faults of the mappings count), so that other work on
// a shared machine does not stretch them.
//
//   bench_journal [--records N] [--batch B] [--repeat R] [--dir DIR]
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/journal.hpp"

namespace {

using namespace rocprof;
namespace ts = rocprof::test_support;
using rocprof::test_support::thread_cpu_seconds;

struct options {
  size_t records = 1'000'000;  // per kind
  size_t batch = 4096;
  int repeat = 3;
  std::string dir = "/tmp";
};

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--records")
      o.records = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--batch")
      o.batch = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--repeat")
      o.repeat = std::atoi(argv[i + 1]);
    else if (flag == "--dir")
      o.dir = argv[i + 1];
  }
  o.batch = std::max<size_t>(o.batch, 1);
  o.repeat = std::max(o.repeat, 1);
  return o;
}

// Calls append(pointer, count) for each batch of both kinds, interleaved as deliveries are.
template <typename Append>
double seconds_to_store(const ts::synthetic_trace& t, size_t batch, Append&& append) {
  const double start = thread_cpu_seconds();
  for (size_t i = 0; i < t.kernels.size(); i += batch) {
    const size_t n = std::min(batch, t.kernels.size() - i);
    append(t.kernels.data() + i, n);
    append(t.api.data() + i, n);
  }
  return thread_cpu_seconds() - start;
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  ts::synthetic_options so;
  so.records_per_kind = o.records;
  ts::synthetic_trace t;
  t.defs = ts::make_synthetic_definitions(so);
  ts::generate_kernels(so, 0, o.records, t.kernels);
  ts::generate_api(so, t.defs, 0, o.records, t.api);
  const size_t total = t.kernels.size() + t.api.size();
  const size_t bytes = t.kernels.size() * sizeof(trace::kernel_dispatch_record) +
                       t.api.size() * sizeof(trace::api_record);

  double best_copy = 1e9, best_journal = 1e9;
  for (int r = 0; r < o.repeat; ++r) {
    // Fresh memory each run, as a store that grows gets it: its page faults are part of the cost.
    char* memory = static_cast<char*>(std::malloc(bytes));
    size_t used = 0;
    best_copy = std::min(best_copy, seconds_to_store(t, o.batch, [&](const auto* p, size_t n) {
                           std::memcpy(memory + used, p, n * sizeof(*p));
                           used += n * sizeof(*p);
                         }));
    std::free(memory);
    trace::journal_writer journal;
    trace::output_plan plan;
    plan.writers = {"csv"};
    plan.options.output_directory = o.dir;
    std::string error;
    if (!journal.create(o.dir, plan, &error)) {
      std::fprintf(stderr, "bench_journal: cannot create a journal in %s: %s\n", o.dir.c_str(),
                   error.c_str());
      return 1;
    }
    size_t taken = 0;
    best_journal =
        std::min(best_journal, seconds_to_store(t, o.batch, [&](const auto* p, size_t n) {
                   taken += journal.append(p, n);
                 }));
    journal.remove();
    if (taken != total) {
      std::fprintf(stderr, "bench_journal: the journal took %zu of %zu records: %s\n", taken, total,
                   journal.last_error().c_str());
      return 1;
    }
  }
  const double ns_copy = best_copy * 1e9 / static_cast<double>(total);
  const double ns_journal = best_journal * 1e9 / static_cast<double>(total);
  std::printf("%zu records (%zu kernel + %zu api, %.0f MiB) in batches of %zu, best of %d\n", total,
              t.kernels.size(), t.api.size(), static_cast<double>(bytes) / (1 << 20), o.batch,
              o.repeat);
  std::printf("baseline memcpy : %7.1f ns/record  %8.0f MiB/s\n", ns_copy,
              static_cast<double>(bytes) / (1 << 20) / best_copy);
  std::printf("journal         : %7.1f ns/record  %8.0f MiB/s\n", ns_journal,
              static_cast<double>(bytes) / (1 << 20) / best_journal);
  std::printf("journal / baseline: %.2fx (added %.1f ns per record)\n", ns_journal / ns_copy,
              ns_journal - ns_copy);
  return 0;
}
