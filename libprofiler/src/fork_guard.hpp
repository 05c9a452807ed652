// The core's locks across fork(). A forked child has only the forking thread; a lock another
// thread of the parent held at the fork would stay locked in the child forever, and the data it
// guarded could be half-changed. Each lock registered here is taken before fork() (waiting at
// most fork_lock_limit, so that a fork from a thread that holds one, or whose holder waits for
// the forking thread, still proceeds), released after it in the parent, and made anew,
// unlocked, in the child.
//
// The handlers are registered when the library loads (fork_guard.cpp), before any other fork
// handler of the core: their "prepare" runs last (after the delivery threads are quiesced) and
// their "child" first (before the delivery threads restart).
#pragma once

#include <atomic>
#include <mutex>

namespace rocprof::core {

// Registers a lock that lives until the process ends. Thread-safe, lock-free; at most
// max_fork_guarded_locks locks (more are not guarded).
void guard_across_fork(std::mutex& lock);
void guard_across_fork(std::recursive_mutex& lock);

inline constexpr int max_fork_guarded_locks = 32;

// The object `slot` points to, made on first use without a lock (a function-local static's
// guard is a lock: a fork while another thread is inside the initialisation would leave the
// child waiting for it forever). Racing first callers each make one; one wins, the others'
// are deleted. `made` runs once, on the winner (e.g. to guard the object's lock).
template <typename T, typename OnMade>
T& lazily_made(std::atomic<T*>& slot, OnMade made) {
  T* current = slot.load(std::memory_order_acquire);
  if (current != nullptr) return *current;
  T* fresh = new T();
  if (slot.compare_exchange_strong(current, fresh, std::memory_order_acq_rel)) {
    made(*fresh);
    return *fresh;
  }
  delete fresh;
  return *current;
}

}  // namespace rocprof::core
