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
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "rocprofiler-sdk-roctx/roctx.h"

namespace {

void on_term(int) {
  static const char text[] = "crash_app handler ran\n";
  (void)::write(STDERR_FILENO, text, sizeof(text) - 1);
  ::_exit(3);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <sigterm|abort|handler> <pairs>\n", argv[0]);
    return 2;
  }
  const char* mode = argv[1];
  const int pairs = std::atoi(argv[2]);
  if (std::strcmp(mode, "handler") == 0) {
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
  if (std::strcmp(mode, "fork") == 0) {
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
  if (std::strcmp(mode, "exit-while-running") == 0) {
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
  if (std::strcmp(mode, "abort") == 0) std::abort();
  int signo = SIGTERM;
  if (std::strcmp(mode, "sigint") == 0) signo = SIGINT;
  if (std::strcmp(mode, "sigquit") == 0) signo = SIGQUIT;
  if (std::strcmp(mode, "sighup") == 0) signo = SIGHUP;
  ::kill(::getpid(), signo);
  ::pause();  // the signal ends the process before this returns
  return 0;
}
