#include "fork_guard.hpp"

#include <pthread.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <new>
#include <thread>

namespace rocprof::core {
namespace {

constexpr auto fork_lock_limit = std::chrono::seconds(2);

struct guarded_lock {
  std::atomic<void*> lock{nullptr};  // set last: a slot is usable once it is non-null
  bool recursive = false;
  bool held_for_fork = false;  // by the forking thread, between prepare and parent/child
};

// Constant-initialized: usable from other libraries' constructors, whatever the order.
std::array<guarded_lock, max_fork_guarded_locks> g_locks;
std::atomic<int> g_count{0};

template <typename Mutex>
bool try_lock_until(Mutex& m, std::chrono::steady_clock::time_point deadline) {
  while (!m.try_lock()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  return true;
}

template <typename F>
void for_each_lock(F f) {
  const int n = std::min(g_count.load(), max_fork_guarded_locks);
  for (int i = 0; i < n; ++i) {
    void* lock = g_locks[i].lock.load(std::memory_order_acquire);
    if (lock != nullptr) f(g_locks[i], lock);
  }
}

void lock_before_fork() {
  const auto deadline = std::chrono::steady_clock::now() + fork_lock_limit;
  for_each_lock([deadline](guarded_lock& g, void* lock) {
    g.held_for_fork = g.recursive
                          ? try_lock_until(*static_cast<std::recursive_mutex*>(lock), deadline)
                          : try_lock_until(*static_cast<std::mutex*>(lock), deadline);
  });
}

void unlock_after_fork_in_parent() {
  for_each_lock([](guarded_lock& g, void* lock) {
    if (!g.held_for_fork) return;
    g.held_for_fork = false;
    if (g.recursive)
      static_cast<std::recursive_mutex*>(lock)->unlock();
    else
      static_cast<std::mutex*>(lock)->unlock();
  });
}

// In the child every guarded lock is made anew, unlocked: one the forking thread took in
// lock_before_fork guards nothing half-changed, and unlocking it is not possible (a recursive
// mutex remembers its owner's thread id, and the child's thread has another one); one that was
// not obtained in time belongs to a thread that did not come along.
void remake_after_fork_in_child() {
  for_each_lock([](guarded_lock& g, void* lock) {
    g.held_for_fork = false;
    if (g.recursive)
      new (lock) std::recursive_mutex();
    else
      new (lock) std::mutex();
  });
}

void add(void* lock, bool recursive) {
  const int index = g_count.fetch_add(1);
  if (index >= max_fork_guarded_locks) return;
  g_locks[static_cast<size_t>(index)].recursive = recursive;
  g_locks[static_cast<size_t>(index)].lock.store(lock, std::memory_order_release);
}

// Registration only (STYLE: no other work in constructors).
__attribute__((constructor)) void register_fork_handlers() {
  pthread_atfork(lock_before_fork, unlock_after_fork_in_parent, remake_after_fork_in_child);
}

}  // namespace

void guard_across_fork(std::mutex& lock) {
  add(&lock, false);
}

void guard_across_fork(std::recursive_mutex& lock) {
  add(&lock, true);
}

}  // namespace rocprof::core
