// ROCPROF_BACKTRACE_ON_ABORT=1: a fatal signal (abort, e.g. glibc's "double free or
// corruption", a segmentation fault, a bus error) first writes the failing thread's stack to
// stderr, then ends the process as it would have. For machines without a debugger (the lent
// GPU machine has neither gdb nor valgrind): frames read "library(+offset)", resolved on the
// build machine with `addr2line -f -C -e <library of that build> <offset>`.
#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace {

void write_text(const char* text) {
  const ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

// Async-signal-safe enough for a process about to die: backtrace() was called once at
// installation, so it does not load libgcc here.
void on_fatal_signal(int sig) {
  write_text("rocprofiler: fatal signal ");
  write_text(sig == SIGABRT ? "SIGABRT" : sig == SIGSEGV ? "SIGSEGV" : "SIGBUS");
  write_text("; backtrace of the failing thread:\n");
  void* frames[64];
  const int n = backtrace(frames, 64);
  backtrace_symbols_fd(frames, n, STDERR_FILENO);
  signal(sig, SIG_DFL);
  raise(sig);
}

__attribute__((constructor)) void install_abort_backtrace() {
  const char* wanted = std::getenv("ROCPROF_BACKTRACE_ON_ABORT");
  if (wanted == nullptr || std::strcmp(wanted, "1") != 0) return;
  void* warm[1];
  backtrace(warm, 1);
  struct sigaction action {};
  action.sa_handler = on_fatal_signal;
  sigemptyset(&action.sa_mask);
  for (const int sig : {SIGABRT, SIGSEGV, SIGBUS})
    sigaction(sig, &action, nullptr);
}

}  // namespace
