#include "thread_state.hpp"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <memory>

#include "buffer.hpp"

namespace rocprof::core {

__thread thread_state* t_thread_state __attribute__((tls_model("initial-exec"))) = nullptr;

namespace {

__thread bool t_exited __attribute__((tls_model("initial-exec"))) = false;

uint64_t os_thread_id() {
  return static_cast<uint64_t>(syscall(SYS_gettid));
}

// A forked child keeps the forking thread's state but gets a new thread id. Registered when
// the library loads (a function-local static's guard, taken by a thread's first record, could
// be copied into a forked child half-way).
void refresh_tid_after_fork() {
  if (t_thread_state != nullptr) t_thread_state->tid = os_thread_id();
}

__attribute__((constructor)) void register_tid_refresh() {
  pthread_atfork(nullptr, nullptr, refresh_tid_after_fork);
}

struct exit_guard {
  ~exit_guard() {
    thread_state* st = t_thread_state;
    if (st == nullptr) return;
    // Hand what this thread recorded to the delivery threads before it goes away.
    for (lane* l : st->lanes)
      if (l != nullptr) release_lane(l);
    t_thread_state = nullptr;
    t_exited = true;
    delete st;
  }
};

}  // namespace

thread_state* create_thread_state() {
  if (t_exited) return nullptr;
  // Owned here until complete: if an allocation fails, the caller's C-boundary guard reports
  // it, nothing leaks, and the thread's next call tries again.
  std::unique_ptr<thread_state> st{new thread_state()};
  st->tid = os_thread_id();
  st->ranges.reserve(64);
  st->externals.reserve(8);
  static thread_local exit_guard guard;  // its destructor runs at thread exit
  (void)guard;
  t_thread_state = st.release();
  return t_thread_state;
}

}  // namespace rocprof::core
