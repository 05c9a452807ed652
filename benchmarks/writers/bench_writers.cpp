// Writer throughput: N synthetic records (kernels, copies, API calls and markers) streamed in
// batches to each format. Prints records/s, bytes per record and peak RSS. Each format runs in a
// child process so that its peak RSS is its own; RSS should not grow with N (streaming writers).
//
//   bench_writers [--records N] [--batch B] [--formats rocpd,csv,...] [--dir DIR] [--no-fork]
//                 [--keep]
//
// --no-fork runs the formats in this process, one after the other, so that a heap profiler
// (heaptrack, valgrind --tool=massif) sees them; peak RSS is then the process's, not per format.
// --keep leaves the outputs in DIR/rocprof-bench-<format>-<pid> (to check or compare them).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace {

using namespace rocprof;
namespace ts = rocprof::test_support;
using clock_type = std::chrono::steady_clock;

uint64_t peak_rss_kib() {
  // VmHWM is per process (a forked child starts from its own pages), unlike the children
  // aggregate of getrusage.
  if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, f))
      if (std::strncmp(line, "VmHWM:", 6) == 0) {
        std::fclose(f);
        return std::strtoull(line + 6, nullptr, 10);
      }
    std::fclose(f);
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<uint64_t>(ru.ru_maxrss);
}

uint64_t directory_bytes(const std::string& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec)) total += it->file_size(ec);
  return total;
}

// Runs one format; returns 0 on success. Mix per batch: 50% API calls (every domain, markers
// included), 30% kernel dispatches, 20% memory copies.
int run_format(const std::string& format, uint64_t records, size_t batch, const std::string& dir) {
  trace::output_options o;
  o.output_directory = dir;
  o.file_prefix = "bench";
  o.summary = format == "summary";
  o.summary_output = "bench_summary";
  std::string error;
  auto w = trace::make_writer(format, o, &error);
  if (!w) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  ts::synthetic_options so;
  so.records_per_kind = records;
  so.counters = 0;  // a tracing run: no counter collection, so writers keep no per-dispatch state
  const auto defs = ts::make_synthetic_definitions(so);
  std::vector<trace::api_record> api;
  std::vector<trace::kernel_dispatch_record> kernels;
  std::vector<trace::memory_copy_record> copies;
  const size_t n_api = batch / 2, n_kernel = batch * 3 / 10, n_copy = batch - n_api - n_kernel;

  clock_type::duration busy{};
  auto timed = [&busy](auto&& fn) {
    const auto t0 = clock_type::now();
    fn();
    busy += clock_type::now() - t0;
  };
  timed([&] { w->begin(defs); });
  uint64_t written = 0, a = 0, k = 0, c = 0;
  while (written < records) {
    const uint64_t left = records - written;
    const size_t na = static_cast<size_t>(std::min<uint64_t>(n_api, left));
    const size_t nk = static_cast<size_t>(std::min<uint64_t>(n_kernel, left - na));
    const size_t nc = static_cast<size_t>(std::min<uint64_t>(n_copy, left - na - nk));
    api.clear();
    kernels.clear();
    copies.clear();
    ts::generate_api(so, defs, a, na, api);
    ts::generate_kernels(so, k, nk, kernels);
    ts::generate_memory_copies(so, c, nc, copies);
    a += na;
    k += nk;
    c += nc;
    timed([&] {
      w->write(trace::make_span(api));
      w->write(trace::make_span(kernels));
      w->write(trace::make_span(copies));
    });
    written += na + nk + nc;
  }
  std::string finish_error;
  timed([&] { finish_error = w->finish(); });
  if (!finish_error.empty()) {
    std::fprintf(stderr, "%s: %s\n", format.c_str(), finish_error.c_str());
    return 1;
  }
  const double secs = std::chrono::duration<double>(busy).count();
  const uint64_t bytes = directory_bytes(dir);
  std::printf(
      "%-8s records=%-10llu time=%8.3f s  %10.0f records/s  %7.1f bytes/record  peak_rss=%6.1f "
      "MiB\n",
      format.c_str(), static_cast<unsigned long long>(written), secs,
      static_cast<double>(written) / secs,
      static_cast<double>(bytes) / static_cast<double>(written),
      static_cast<double>(peak_rss_kib()) / 1024.0);
  std::fflush(stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t records = 10'000'000;
  size_t batch = 4096;
  std::vector<std::string> formats;
  std::string base = std::filesystem::temp_directory_path().string();
  bool fork_per_format = true;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (arg == "--records")
      records = std::strtoull(value().c_str(), nullptr, 10);
    else if (arg == "--batch")
      batch = std::max<size_t>(16, std::strtoull(value().c_str(), nullptr, 10));
    else if (arg == "--dir")
      base = value();
    else if (arg == "--no-fork")
      fork_per_format = false;
    else if (arg == "--keep")
      keep = true;
    else if (arg == "--formats") {
      std::string list = value();
      for (size_t p = 0; p <= list.size();) {
        auto q = list.find(',', p);
        if (q == std::string::npos) q = list.size();
        if (q > p) formats.push_back(list.substr(p, q - p));
        p = q + 1;
      }
    } else {
      std::fprintf(
          stderr,
          "usage: %s [--records N] [--batch B] [--formats a,b] [--dir DIR] [--no-fork] [--keep]\n",
          argv[0]);
      return 2;
    }
  }
  if (formats.empty())
    for (const auto& name : trace::writer_names())
      if (name != "config") formats.push_back(name);

  std::printf(
      "writers benchmark: %llu records per format (50%% API/markers, 30%% kernels, 20%% copies), "
      "batch %zu\n",
      static_cast<unsigned long long>(records), batch);
  std::fflush(stdout);
  int failures = 0;
  for (const auto& format : formats) {
    const std::string dir = base + "/rocprof-bench-" + format + "-" + std::to_string(::getpid());
    std::filesystem::create_directories(dir);
    bool ok = false;
    if (fork_per_format) {
      const pid_t child = ::fork();
      if (child == 0) _exit(run_format(format, records, batch, dir));
      int status = 0;
      ::waitpid(child, &status, 0);
      ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    } else {
      ok = run_format(format, records, batch, dir) == 0;
    }
    if (!ok) {
      std::fprintf(stderr, "%s: failed\n", format.c_str());
      ++failures;
    }
    std::error_code ec;
    if (!keep) std::filesystem::remove_all(dir, ec);
  }
  return failures ? 1 : 0;
}
