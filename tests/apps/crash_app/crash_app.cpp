// Records markers, then ends abnormally. Usage: crash_app <mode> <pairs>
//   sigterm, sigint, sigquit, sighup: sends itself that signal; abort: calls abort();
//   handler: installs its own SIGTERM
//   handler (which writes "crash_app handler ran" and _exits with 3), then sends itself SIGTERM.
// Before dying it records <pairs> push/pop pairs of "crash-pair" and one mark "before-crash".
//   fork: no crash: after the pairs and the mark it forks; the child records <pairs> pairs of
//   "child-pair" and exits normally; the parent waits, marks "parent-after-fork", exits 0.
//   Each prints "<role> pid <pid>".
//   exit-while-running: starts two threads that push/pop "busy-pair" until the process ends,
//   waits until both recorded something, then returns from main while they still run.
//
// Checkpoint modes (the recovery tests): the process prints "pid <pid>", then 4 threads each
// record <pairs> pairs of "pre-kill"; when all are done it prints "checkpoint <4 x pairs>" and:
//   kill:   the threads go on recording "post-checkpoint" pairs (one per 100 us) and main waits
//           to be killed (the test sends SIGKILL);
//   segv:   200 ms later main dereferences a null pointer;
//   oom:    200 ms later main allocates 1 MiB blocks (touching them) until the allocation fails
//           and the uncaught std::bad_alloc aborts it (run it under `prlimit --as`);
//   _exit:  200 ms later main calls _exit(0) (no atexit handler runs);
//   wait:   main waits for a signal (the signal tests);
//   linger: main sleeps one second and returns 0 (two runs at once).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "rocprofiler-sdk-roctx/roctx.h"

namespace {

void on_term(int) {
  static const char text[] = "crash_app handler ran\n";
  (void)::write(STDERR_FILENO, text, sizeof(text) - 1);
  ::_exit(3);
}

bool is(const char* mode, const char* name) {
  return std::strcmp(mode, name) == 0;
}

void sleep_ms(int ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

// Never returns (the process ends in a way the mode chooses).
[[noreturn]] void checkpoint_mode(const char* mode, int pairs) {
  std::printf("pid %d\n", static_cast<int>(::getpid()));
  std::fflush(stdout);
  static std::atomic<int> done{0};
  static std::atomic<bool> keep_recording{is(mode, "kill")};
  for (int t = 0; t < 4; ++t) {
    std::thread([pairs] {
      for (int i = 0; i < pairs; ++i) {
        roctxRangePushA("pre-kill");
        roctxRangePop();
      }
      done.fetch_add(1);
      while (keep_recording.load()) {
        roctxRangePushA("post-checkpoint");
        roctxRangePop();
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    }).detach();
  }
  while (done.load() < 4)
    sleep_ms(1);
  std::printf("checkpoint %d\n", 4 * pairs);
  std::fflush(stdout);
  if (is(mode, "linger")) {
    sleep_ms(1000);
    std::exit(0);
  }
  if (is(mode, "kill") || is(mode, "wait")) {
    for (;;)
      ::pause();
  }
  sleep_ms(200);
  if (is(mode, "segv")) {
    volatile uintptr_t nowhere = 0;  // a real fault, not a signal sent with kill()
    *reinterpret_cast<volatile int*>(nowhere) = 1;
  }
  if (is(mode, "oom")) {
    std::vector<std::unique_ptr<char[]>> blocks;
    blocks.reserve(1 << 16);
    for (;;) {
      blocks.emplace_back(new char[1 << 20]);
      std::memset(blocks.back().get(), 1, 1 << 20);
    }
  }
  ::_exit(0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <mode> <pairs>\n", argv[0]);
    return 2;
  }
  const char* mode = argv[1];
  const int pairs = std::atoi(argv[2]);
  for (const char* checkpointed : {"kill", "segv", "oom", "_exit", "wait", "linger"})
    if (is(mode, checkpointed)) checkpoint_mode(mode, pairs);
  if (is(mode, "handler")) {
    struct sigaction action {};
    action.sa_handler = on_term;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, nullptr);
  }
  for (int i = 0; i < pairs; ++i) {
    roctxRangePushA("crash-pair");
    roctxRangePop();
  }
  roctxMarkA("before-crash");
  std::fflush(stdout);
  if (is(mode, "fork")) {
    const pid_t child = ::fork();
    if (child == 0) {
      std::printf("child pid %d\n", static_cast<int>(::getpid()));
      for (int i = 0; i < pairs; ++i) {
        roctxRangePushA("child-pair");
        roctxRangePop();
      }
      std::fflush(stdout);
      std::exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    std::printf("parent pid %d\n", static_cast<int>(::getpid()));
    roctxMarkA("parent-after-fork");
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  }
  if (is(mode, "exit-while-running")) {
    static std::atomic<int> started{0};
    for (int t = 0; t < 2; ++t) {
      std::thread([] {
        bool counted = false;
        for (;;) {
          roctxRangePushA("busy-pair");
          roctxRangePop();
          if (!counted) started.fetch_add(1);
          counted = true;
        }
      }).detach();
    }
    while (started.load() < 2)
      std::this_thread::yield();
    return 0;  // exit() runs while both threads keep recording
  }
  if (is(mode, "abort")) std::abort();
  int signo = SIGTERM;
  if (is(mode, "sigint")) signo = SIGINT;
  if (is(mode, "sigquit")) signo = SIGQUIT;
  if (is(mode, "sighup")) signo = SIGHUP;
  ::kill(::getpid(), signo);
  ::pause();  // the signal ends the process before this returns
  return 0;
}
