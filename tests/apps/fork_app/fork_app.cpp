// Forks from threads that are making ROCTx markers. Usage: fork_app <threads> <forks per thread>
//
// Each thread starts at once, without waiting for the others (so the first ROCTx calls of the
// process, which find the profiler core, race the first forks), and repeats <forks per thread>
// times: a few markers, then fork(). Each child makes markers on the forking thread and on a
// thread of its own (a new string each time, so the core's string table is used), then exits
// normally (its tool writes its outputs). The parent waits for each child at most 30 s; one
// that has not ended by then is a hang: killed and counted.
// Prints "forks <n> hangs <h> failures <f>" and exits 0 when there was no hang or failure.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "rocprofiler-sdk-roctx/roctx.h"

namespace {

std::atomic<int> g_forks{0};
std::atomic<int> g_hangs{0};
std::atomic<int> g_failures{0};

void markers(const std::string& text) {
  roctxRangePushA(text.c_str());
  roctxMarkA(text.c_str());
  roctxRangePop();
}

[[noreturn]] void child_body(int thread, int round) {
  const std::string text = "child-" + std::to_string(thread) + "-" + std::to_string(round);
  markers(text);
  std::thread other([&text] { markers(text + "-thread"); });
  other.join();
  std::exit(0);
}

// Waits for `child` at most 30 s; false when it had to be killed.
bool reap(pid_t child) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) {
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) g_failures.fetch_add(1);
      return true;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

void worker(int thread, int forks) {
  for (int round = 0; round < forks; ++round) {
    markers("parent-" + std::to_string(thread));
    const pid_t child = ::fork();
    if (child == 0) child_body(thread, round);
    if (child < 0) {
      g_failures.fetch_add(1);
      continue;
    }
    g_forks.fetch_add(1);
    if (!reap(child)) g_hangs.fetch_add(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <threads> <forks per thread>\n", argv[0]);
    return 2;
  }
  const int threads = std::atoi(argv[1]);
  const int forks = std::atoi(argv[2]);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back(worker, t, forks);
  for (auto& t : pool)
    t.join();
  std::printf("forks %d hangs %d failures %d\n", g_forks.load(), g_hangs.load(), g_failures.load());
  return g_hangs.load() == 0 && g_failures.load() == 0 ? 0 : 1;
}
