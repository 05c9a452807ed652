#include "lifecycle.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <new>
#include <thread>

#include "real_signal.hpp"

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

constexpr std::array<int, 5> handled_signals{SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGABRT};
constexpr int signal_slots = 65;
// How long a signal handler waits for the outputs before letting the signal proceed anyway
// (a thread interrupted while holding a lock the writers need must not hang the process).
constexpr int finalize_wait_ms = 60000;

callback finalize_fn = nullptr;
callback reset_fn = nullptr;
std::atomic<bool> handlers_installed{false};
std::array<struct sigaction, signal_slots> chained{};  // the application's actions

// Finalize-once state. `state`: 0 not started, 1 running, 2 done.
std::mutex finalize_mutex;
std::condition_variable finalize_done;
int state = 0;

// Signal hand-off: request pipe (handler -> finalizer thread), done pipe (thread -> handler).
int request_pipe[2] = {-1, -1};
std::atomic<pid_t> finalizer_tid{0};  // a signal raised on that thread must not wait for itself
int done_pipe[2] = {-1, -1};

void close_pipes() {
  for (int* fds : {request_pipe, done_pipe}) {
    for (int i = 0; i < 2; ++i) {
      if (fds[i] >= 0) ::close(fds[i]);
      fds[i] = -1;
    }
  }
}

void finalizer_thread_main() {
  finalizer_tid.store(::gettid());
  for (;;) {
    int signo = 0;
    ssize_t n = ::read(request_pipe[0], &signo, sizeof(signo));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    finalize_once();
    const char done = 1;
    while (::write(done_pipe[1], &done, 1) < 0 && errno == EINTR) {
    }
  }
}

void start_finalizer_thread() {
  if (::pipe2(request_pipe, O_CLOEXEC) != 0 || ::pipe2(done_pipe, O_CLOEXEC) != 0) {
    close_pipes();
    return;
  }
  // The thread blocks every signal, so a process-directed signal is never delivered to it.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  try {
    std::thread(finalizer_thread_main).detach();
  } catch (...) {
    close_pipes();
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

void run_chained(int signo, siginfo_t* info, void* context) {
  const struct sigaction& user = chained[static_cast<size_t>(signo)];
  if ((user.sa_flags & SA_SIGINFO) != 0) {
    if (user.sa_sigaction != nullptr) user.sa_sigaction(signo, info, context);
  } else if (user.sa_handler != SIG_DFL && user.sa_handler != SIG_IGN &&
             user.sa_handler != nullptr) {
    user.sa_handler(signo);
  }
}

void on_signal(int signo, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  if (request_pipe[1] >= 0 && finalizer_tid.load() != ::gettid()) {
    // Async-signal-safe only: write(), poll(), read().
    ssize_t n;
    do {
      n = ::write(request_pipe[1], &signo, sizeof(signo));
    } while (n < 0 && errno == EINTR);
    if (n == static_cast<ssize_t>(sizeof(signo))) {
      struct pollfd waiter {};
      waiter.fd = done_pipe[0];
      waiter.events = POLLIN;
      int ready;
      do {
        ready = ::poll(&waiter, 1, finalize_wait_ms);
      } while (ready < 0 && errno == EINTR);
      char done = 0;
      if (ready > 0) (void)::read(done_pipe[0], &done, 1);
    }
  }
  run_chained(signo, info, context);
  // Re-raise with the default action: it is delivered when this handler returns (the signal is
  // blocked while it runs), so the process ends the way it would have without us.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  real_sigaction(signo, &dfl, nullptr);
  errno = saved_errno;
  ::raise(signo);
}

void install_signal_handlers() {
  for (int signo : handled_signals) {
    struct sigaction ours {};
    ours.sa_sigaction = on_signal;
    ours.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NOCLDSTOP;
    sigemptyset(&ours.sa_mask);
    struct sigaction previous {};
    if (real_sigaction(signo, &ours, &previous) == 0)
      chained[static_cast<size_t>(signo)] = previous;
  }
  handlers_installed.store(true);
}

void at_exit() {
  finalize_once();
}

void after_fork_in_child() {
  // The parent's finalizer thread and any finalization in progress do not exist here, and a
  // lock one of them held would stay locked: a fresh one.
  new (&finalize_mutex) std::mutex();
  state = 0;
  close_pipes();
  if (reset_fn != nullptr) reset_fn();
  if (handlers_installed.load()) start_finalizer_thread();
}

}  // namespace

void install(callback finalize, callback reset_after_fork, bool signal_handlers) {
  finalize_fn = finalize;
  reset_fn = reset_after_fork;
  std::atexit(at_exit);
  pthread_atfork(nullptr, nullptr, after_fork_in_child);
  if (signal_handlers) {
    start_finalizer_thread();
    install_signal_handlers();
  }
}

void finalize_once() {
  {
    std::unique_lock<std::mutex> lock(finalize_mutex);
    if (state == 2) return;
    if (state == 1) {
      finalize_done.wait(lock, [] { return state == 2; });
      return;
    }
    state = 1;
  }
  if (finalize_fn != nullptr) finalize_fn();
  {
    std::lock_guard<std::mutex> lock(finalize_mutex);
    state = 2;
  }
  finalize_done.notify_all();
}

bool finalized() {
  std::lock_guard<std::mutex> lock(finalize_mutex);
  return state == 2;
}

bool is_handled(int signo) {
  if (!handlers_installed.load()) return false;
  for (int s : handled_signals)
    if (s == signo) return true;
  return false;
}

struct sigaction* chained_action(int signo) {
  if (signo <= 0 || signo >= signal_slots) return nullptr;
  return &chained[static_cast<size_t>(signo)];
}

}  // namespace lifecycle
}  // namespace rocprof::tool
