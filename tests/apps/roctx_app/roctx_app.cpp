// Multi-threaded ROCTx sample. Usage: roctx_app <threads> <iterations> [flat]
//                                   roctx_app <threads> <milliseconds> timed
//
// Default mode, with T threads and N iterations (the end-to-end tests count exactly these):
//   main thread, named "main":
//     mark "before-resume"; roctxProfilerResume(0)  (with --selected-regions only what follows
//       a resume is collected)
//     process range "process-range": started here, stopped by worker 0 (another thread)
//     mark "start"; T workers; join
//     roctxProfilerPause(0); range "while-paused" + mark "while-paused-mark" (never collected);
//     roctxProfilerResume(0); mark "end"
//   each worker k, named "worker-k": N x { push "outer"; push "inner"; pop; pop }; mark
//     "worker-done"
// flat mode: each worker does N push/pop pairs of "pair" and nothing else (lossless test).
// timed mode: each worker pushes and pops "timed-pair" every 200 us for the given number of
// milliseconds (collection-period test: records spread over a known time).
// Each worker prints "worker <k> tid <tid>" so tests can match thread ids and names.
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "rocprofiler-sdk-roctx/roctx.h"

namespace {

long current_tid() {
  return ::syscall(SYS_gettid);
}

void timed_worker(int milliseconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(milliseconds);
  while (std::chrono::steady_clock::now() < end) {
    roctxRangePushA("timed-pair");
    roctxRangePop();
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

void worker(int index, int iterations, bool flat, roctx_range_id_t range_to_stop) {
  const std::string name = "worker-" + std::to_string(index);
  roctxNameOsThread(name.c_str());
  std::printf("worker %d tid %ld\n", index, current_tid());
  if (flat) {
    for (int i = 0; i < iterations; ++i) {
      roctxRangePushA("pair");
      roctxRangePop();
    }
    return;
  }
  if (range_to_stop != 0) roctxRangeStop(range_to_stop);  // a process range ending elsewhere
  for (int i = 0; i < iterations; ++i) {
    const int outer_level = roctxRangePushA("outer");
    const int inner_level = roctxRangePushA("inner");
    if (outer_level != 0 || inner_level != 1) std::fprintf(stderr, "unexpected nesting level\n");
    roctxRangePop();
    roctxRangePop();
  }
  roctxMarkA("worker-done");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <threads> <iterations> [flat]\n", argv[0]);
    return 2;
  }
  const int threads = std::atoi(argv[1]);
  const int iterations = std::atoi(argv[2]);
  const bool flat = argc > 3 && std::strcmp(argv[3], "flat") == 0;
  if (argc > 3 && std::strcmp(argv[3], "timed") == 0) {
    std::vector<std::thread> pool;
    for (int k = 0; k < threads; ++k)
      pool.emplace_back(timed_worker, iterations);
    for (auto& t : pool)
      t.join();
    return 0;
  }

  roctxNameOsThread("main");
  std::printf("main tid %ld\n", current_tid());
  std::fflush(stdout);
  if (!flat) {
    roctxMarkA("before-resume");
    roctxProfilerResume(0);
  }
  const roctx_range_id_t process_range = flat ? 0 : roctxRangeStartA("process-range");
  if (!flat) roctxMarkA("start");

  std::vector<std::thread> pool;
  for (int k = 0; k < threads; ++k)
    pool.emplace_back(worker, k, iterations, flat, k == 0 ? process_range : 0);
  for (auto& t : pool)
    t.join();
  std::fflush(stdout);

  if (!flat) {
    roctxProfilerPause(0);
    roctxRangePushA("while-paused");
    roctxRangePop();
    roctxMarkA("while-paused-mark");
    roctxProfilerResume(0);
    roctxMarkA("end");
  }
  return 0;
}
