// The tool's signal handlers (see lifecycle.hpp for what each signal does). Only
// async-signal-safe work happens here: atomics, clock_gettime, write, poll, unlink, sigaction,
// raise; everything else runs on the finalizer thread (finalizer_channel.hpp).
#include <dlfcn.h>
#include <pthread.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>

#include "finalizer_channel.hpp"
#include "lifecycle.hpp"
#include "real_signal.hpp"
#include "rocprof/trace/staged_file.hpp"

namespace rocprof::tool {

int real_sigaction(int signo, const struct sigaction* action, struct sigaction* previous) {
  using sigaction_fn = int (*)(int, const struct sigaction*, struct sigaction*);
  // RTLD_NEXT from here skips the tool's exported sigaction() and finds the C library's.
  static const auto real = reinterpret_cast<sigaction_fn>(dlsym(RTLD_NEXT, "sigaction"));
  if (real == nullptr) return -1;
  return real(signo, action, previous);
}

namespace lifecycle {
namespace {

// Signals that end the process through the outputs: the user's stop signals, and abort().
constexpr std::array<int, 5> stop_signals{SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGABRT};
// Faults: the process cannot go on; only a flush is attempted before it dies.
constexpr std::array<int, 4> fault_signals{SIGSEGV, SIGBUS, SIGILL, SIGFPE};
constexpr int signal_slots = 65;
// How long a stop signal waits for the outputs before letting the signal proceed anyway (a
// thread interrupted while holding a lock the writers need must not hang the process), and how
// long a fault waits for the flush (the process is damaged: less).
constexpr int finalize_wait_ms = 60000;
constexpr int fault_wait_ms = 10000;
// Three stop signals within this window stop the process at once.
constexpr int64_t forced_stop_window_ns = 1000000000;
constexpr size_t forced_stop_count = 3;
constexpr size_t alternate_stack_bytes = 256 * 1024;

std::atomic<bool> installed{false};
std::array<struct sigaction, signal_slots> chained_actions{};  // the application's actions
std::array<std::atomic<bool>, signal_slots> ours{};            // our handler is installed
// The arrival times of the last stop signals (a ring), and the first one (re-raised at the end).
std::array<std::atomic<int64_t>, forced_stop_count> arrivals{};
std::atomic<size_t> arrival_count{0};
std::atomic<int> first_signal{0};

int64_t monotonic_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

void say(const char* text) {
  size_t length = 0;
  while (text[length] != '\0')
    ++length;
  (void)!::write(STDERR_FILENO, text, length);
}

// Counts a user's stop signal; true when it is the third within a second.
bool third_within_a_second() {
  const size_t n = arrival_count.fetch_add(1);
  const int64_t now = monotonic_ns();
  arrivals[n % forced_stop_count].store(now);
  if (n + 1 < forced_stop_count) return false;
  const int64_t oldest = arrivals[(n + 1) % forced_stop_count].load();
  return now - oldest <= forced_stop_window_ns;
}

[[noreturn]] void die_by(int signo) {
  detail::set_default_action(signo);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signo);
  ::raise(signo);
  // Blocked here (we are inside its handler): unblocking delivers it with the default action.
  pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
  ::_exit(128 + signo);
}

void run_chained(int signo, siginfo_t* info, void* context) {
  const struct sigaction& user = chained_actions[static_cast<size_t>(signo)];
  if ((user.sa_flags & SA_SIGINFO) != 0) {
    if (user.sa_sigaction != nullptr) user.sa_sigaction(signo, info, context);
  } else if (user.sa_handler != SIG_DFL && user.sa_handler != SIG_IGN &&
             user.sa_handler != nullptr) {
    user.sa_handler(signo);
  }
}

void on_stop_signal(int signo, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  if (signo != SIGABRT && third_within_a_second()) {
    // The user really wants out: no more waiting; what is not complete goes.
    trace::remove_unfinished_outputs();
    say("rocprofv3: stopped at once (3 interrupts within a second): outputs not yet complete "
        "were removed\n");
    die_by(signo);
  }
  int expected = 0;
  const bool first = first_signal.compare_exchange_strong(expected, signo);
  const auto waited = detail::request_and_wait(detail::finalize_request, finalize_wait_ms);
  if (waited == detail::wait_result::finalizing) {
    // This thread is writing the outputs (exit() got there first): finish them, then end.
    if (first) detail::defer_stop_signal(signo);
    errno = saved_errno;
    return;
  }
  if (!first) {  // the first signal's handler ends the process, with its signal
    errno = saved_errno;
    return;
  }
  run_chained(signo, info, context);
  errno = saved_errno;
  // Re-raised with the default action: the process ends the way it would have without us.
  die_by(signo);
}

void on_fault_signal(int signo, siginfo_t*, void*) {
  detail::request_and_wait(detail::fault_flush_request, fault_wait_ms);
  // Returning re-runs a faulting instruction, which now faults with the default action (core
  // dump included); a fault sent with kill() is raised again instead.
  detail::set_default_action(signo);
  ::raise(signo);
}

// The calling thread's alternate stack, so that a stack overflow still runs the fault handler
// (other threads have none: their overflow skips the flush, and the launcher still recovers the
// journal).
void install_alternate_stack() {
  stack_t current{};
  if (::sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE) == 0) return;
  void* memory = ::mmap(nullptr, alternate_stack_bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return;
  stack_t stack{};
  stack.ss_sp = memory;
  stack.ss_size = alternate_stack_bytes;
  if (::sigaltstack(&stack, nullptr) != 0) ::munmap(memory, alternate_stack_bytes);
}

// Stop signals are installed with SA_NODEFER: while a handler waits for the outputs, the same
// signal must still reach this process (a single-threaded application's only thread is the one
// waiting), to be counted: three within a second stop it at once.
bool install_one(int signo, void (*handler)(int, siginfo_t*, void*), bool only_over_default,
                 int extra_flags) {
  struct sigaction previous {};
  if (real_sigaction(signo, nullptr, &previous) != 0) return false;
  if (only_over_default &&
      ((previous.sa_flags & SA_SIGINFO) != 0 || previous.sa_handler != SIG_DFL))
    return false;  // the application (or a runtime) handles it: leave it alone
  struct sigaction action {};
  action.sa_sigaction = handler;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | extra_flags;
  sigemptyset(&action.sa_mask);
  if (real_sigaction(signo, &action, &previous) != 0) return false;
  chained_actions[static_cast<size_t>(signo)] = previous;
  ours[static_cast<size_t>(signo)].store(true);
  return true;
}

}  // namespace

namespace detail {

void deferred_stop_signal(int signo) {
  siginfo_t info{};
  info.si_signo = signo;
  info.si_code = SI_USER;
  run_chained(signo, &info, nullptr);
  die_by(signo);
}

int set_default_action(int signo) {
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  return real_sigaction(signo, &dfl, nullptr);
}

void install_signal_handlers() {
  for (int signo : stop_signals)
    install_one(signo, on_stop_signal, false, SA_NODEFER);
  install_alternate_stack();
  for (int signo : fault_signals)
    install_one(signo, on_fault_signal, true, 0);
  installed.store(true);
}

bool handlers_installed() {
  return installed.load();
}

struct sigaction* chained(int signo) {
  if (signo <= 0 || signo >= signal_slots) return nullptr;
  return &chained_actions[static_cast<size_t>(signo)];
}

void reset_signal_state_after_fork() {
  arrival_count.store(0);
  first_signal.store(0);
}

}  // namespace detail

bool is_handled(int signo) {
  if (!installed.load()) return false;
  for (int s : stop_signals)
    if (s == signo) return ours[static_cast<size_t>(signo)].load();
  return false;
}

struct sigaction* chained_action(int signo) {
  return detail::chained(signo);
}

}  // namespace lifecycle
}  // namespace rocprof::tool
