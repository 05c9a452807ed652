#include "lifecycle.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <new>
#include <thread>

#include "finalizer_channel.hpp"

namespace rocprof::tool::lifecycle {
namespace {

callback finalize_fn = nullptr;
callback reset_fn = nullptr;
callback fault_fn = nullptr;

// Finalize-once state. `state`: 0 not started, 1 running, 2 done.
std::mutex finalize_mutex;
std::condition_variable finalize_done;
int state = 0;
std::atomic<pid_t> finalizing_tid{0};  // the thread running finalize: it must not wait for itself
std::atomic<int> deferred_signal{0};   // a stop signal that arrived on that thread

// Handler -> thread: a request (one int). Thread -> handlers: the write end of the done pipe
// is closed when the request is served, which wakes every waiter at once.
int request_pipe[2] = {-1, -1};
int done_pipe[2] = {-1, -1};
std::atomic<pid_t> finalizer_tid{0};
std::atomic<bool> requested{false};

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
  int what = 0;
  ssize_t n;
  do {
    n = ::read(request_pipe[0], &what, sizeof(what));
  } while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(sizeof(what))) return;
  if (what == detail::fault_flush_request && fault_fn != nullptr)
    fault_fn();
  else
    finalize_once();
  ::close(done_pipe[1]);
  done_pipe[1] = -1;
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

void at_exit() {
  finalize_once();
}

void after_fork_in_child() {
  // The parent's finalizer thread and any finalization in progress do not exist here, and a
  // lock one of them held would stay locked: a fresh one.
  new (&finalize_mutex) std::mutex();
  new (&finalize_done) std::condition_variable();
  state = 0;
  finalizing_tid.store(0);
  deferred_signal.store(0);
  finalizer_tid.store(0);
  requested.store(false);
  close_pipes();
  detail::reset_signal_state_after_fork();
  if (reset_fn != nullptr) reset_fn();
  if (detail::handlers_installed()) start_finalizer_thread();
}

}  // namespace

namespace detail {

wait_result request_and_wait(request what, int timeout_ms) {
  const pid_t self = ::gettid();
  if (self == finalizing_tid.load()) return wait_result::finalizing;
  if (request_pipe[1] < 0 || self == finalizer_tid.load()) return wait_result::no_thread;
  if (!requested.exchange(true)) {
    const int code = what;
    ssize_t n;
    do {
      n = ::write(request_pipe[1], &code, sizeof(code));
    } while (n < 0 && errno == EINTR);
    if (n != static_cast<ssize_t>(sizeof(code))) return wait_result::no_thread;
  }
  struct pollfd waiter {};
  waiter.fd = done_pipe[0];
  waiter.events = POLLIN;
  int ready;
  do {
    ready = ::poll(&waiter, 1, timeout_ms);
  } while (ready < 0 && errno == EINTR);
  return wait_result::waited;
}

}  // namespace detail

void install(callback finalize, callback reset_after_fork, bool signal_handlers,
             callback flush_for_fault) {
  finalize_fn = finalize;
  reset_fn = reset_after_fork;
  fault_fn = flush_for_fault;
  std::atexit(at_exit);
  pthread_atfork(nullptr, nullptr, after_fork_in_child);
  if (signal_handlers) {
    start_finalizer_thread();
    detail::install_signal_handlers();
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
    finalizing_tid.store(::gettid());
  }
  if (finalize_fn != nullptr) finalize_fn();
  {
    std::lock_guard<std::mutex> lock(finalize_mutex);
    state = 2;
  }
  finalize_done.notify_all();
  // A signal that came while this thread wrote the outputs ends the process now that they are
  // complete.
  if (const int signo = deferred_signal.exchange(0)) detail::deferred_stop_signal(signo);
}

namespace detail {

void defer_stop_signal(int signo) {
  int expected = 0;
  deferred_signal.compare_exchange_strong(expected, signo);
}

}  // namespace detail

bool finalized() {
  std::lock_guard<std::mutex> lock(finalize_mutex);
  return state == 2;
}

}  // namespace rocprof::tool::lifecycle
