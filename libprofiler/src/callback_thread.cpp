#include "callback_thread.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <memory>
#include <new>
#include <system_error>

#include "buffer.hpp"
#include "fork_guard.hpp"
#include "guarded.hpp"
#include "registration.hpp"
#include "rocprofiler-sdk/internal_threading.h"
#include "thread_state.hpp"

namespace rocprof::core {
namespace {

// Writers never signal a hand-over (no system call on the hot path), so the delivery thread
// polls: every 2 ms when idle, every 50 us while blocks keep arriving, so that a busy writer
// finds its other block free instead of waiting for it.
constexpr auto idle_poll_period = std::chrono::milliseconds(2);
constexpr auto busy_poll_period = std::chrono::microseconds(50);
constexpr int busy_polls_before_idle = 40;  // 2 ms without work: back to the idle period

struct thread_create_hook {
  rocprofiler_internal_thread_library_cb_t pre = nullptr;
  rocprofiler_internal_thread_library_cb_t post = nullptr;
  int libs = 0;
  void* data = nullptr;
};
std::mutex g_hooks_mutex;
std::vector<thread_create_hook> g_hooks;

// Called with t->mutex held; returns with it held.
size_t deliver_all(callback_thread* t, std::unique_lock<std::mutex>& lock, bool include_active) {
  t->delivering.assign(t->buffers.begin(), t->buffers.end());  // no allocation once sized
  lock.unlock();
  size_t handed_over = 0;
  for (buffer* b : t->delivering)
    handed_over += buffer_consume(b, include_active);
  lock.lock();
  return handed_over;
}

void thread_main(callback_thread* t) {
  t->tid.store(static_cast<uint64_t>(syscall(SYS_gettid)));
  // The default 50 us timer slack would double the busy poll period, and writers that find
  // both of their blocks still in delivery must wait.
  prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
  std::unique_lock<std::mutex> lock(t->mutex);
  int busy_polls_left = 0;
  // While busy, polls start at a fixed rate: the period counts from the previous poll's start,
  // not its end, so a long delivery (the real tool converts a block in ~30 us) does not
  // stretch the cycle that writers filling a block every ~35 us depend on.
  auto next_poll = std::chrono::steady_clock::now();
  while (!t->stop_requested) {
    const auto now = std::chrono::steady_clock::now();
    if (busy_polls_left > 0) {
      next_poll = std::max(next_poll + busy_poll_period, now);
      --busy_polls_left;
    } else {
      next_poll = now + idle_poll_period;
    }
    if (next_poll > now) t->wake.wait_until(lock, next_poll);
    const uint64_t flush_target = t->flush_requested;
    const bool flushing = flush_target != t->flush_completed;
    if (deliver_all(t, lock, flushing) > 0) busy_polls_left = busy_polls_before_idle;
    t->polling_fast.store(busy_polls_left > 0, std::memory_order_relaxed);
    if (flushing) {
      t->flush_completed = flush_target;
      t->flushed.notify_all();
    }
  }
  deliver_all(t, lock, true);
  t->flush_completed = t->flush_requested;
  t->running.store(false);
  t->flushed.notify_all();
}

std::mutex g_create_mutex;

// The delivery thread of t, started; nullptr (nothing started) when the system has no thread
// or no memory for it: the caller reports a status instead of letting the exception out.
// It blocks every signal: a process-directed signal goes to an application thread, never to a
// delivery thread (a tool's handler that waits for the buffers to be flushed would otherwise
// wait for itself).
std::thread* start_worker(callback_thread* t) {
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  std::thread* worker = nullptr;
  try {
    worker = new std::thread(thread_main, t);
  } catch (const std::system_error&) {
  } catch (const std::bad_alloc&) {
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return worker;
}

// Before a fork: wait until no delivery is in progress and keep new ones from starting (each
// buffer's consume lock held across the fork), so that the parent's delivery threads are not
// in the middle of a tool callback, or of an allocation, when the child is made. Bounded: a
// fork from inside a buffer callback (its own lock) must not hang, and the child's reset
// copes with a delivery that was in progress.
constexpr auto fork_quiesce_limit = std::chrono::seconds(2);
std::mutex g_fork_mutex;  // two threads forking at once take turns
bool g_locked_for_fork[max_buffers] = {};

void quiesce_before_fork() {
  g_fork_mutex.lock();
  const auto deadline = std::chrono::steady_clock::now() + fork_quiesce_limit;
  const uint32_t n = g_num_buffers.load();
  for (uint32_t i = 0; i < n; ++i) {
    buffer* b = g_buffers[i];
    bool locked = b->consume_mutex.try_lock();
    while (!locked && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      locked = b->consume_mutex.try_lock();
    }
    g_locked_for_fork[i] = locked;
  }
}

void resume_after_fork_in_parent() {
  const uint32_t n = g_num_buffers.load();
  for (uint32_t i = 0; i < n; ++i) {
    if (g_locked_for_fork[i]) g_buffers[i]->consume_mutex.unlock();
    g_locked_for_fork[i] = false;
  }
  g_fork_mutex.unlock();
}

// A forked child has none of the parent's threads, and a lock one of them held stays locked:
// give every buffer a clean state and every delivery thread fresh locks, then start the
// threads again, so that the child's records are delivered (and LOSSLESS writers in the child
// never wait forever). Buffers first: a restarted thread must never see the parent's state.
void restart_after_fork() {
  new (&g_fork_mutex) std::mutex();
  std::fill(std::begin(g_locked_for_fork), std::end(g_locked_for_fork), false);
  reset_buffers_after_fork(t_thread_state);  // new consume locks: the held ones are dropped
  const uint32_t n = g_num_callback_threads.load();
  for (uint32_t i = 0; i < n; ++i) {
    callback_thread* t = g_callback_threads[i];
    new (&t->mutex) std::mutex();
    new (&t->wake) std::condition_variable();
    new (&t->flushed) std::condition_variable();
    t->flush_requested = t->flush_completed = 0;
    if (t->stop_requested) {
      t->running.store(false);
      continue;
    }
    t->running.store(true);
    t->tid.store(0);
    // The parent's std::thread cannot be joined or destroyed here: kept reachable, unused.
    static auto* abandoned_workers = new std::vector<std::thread*>();
    abandoned_workers->push_back(t->worker);
    // Without a thread the child's buffers are delivered by flushes on the caller's thread.
    t->worker = start_worker(t);
    if (t->worker == nullptr) t->running.store(false);
  }
}

}  // namespace

void run_internal_thread_callbacks(bool before) {
  std::lock_guard<std::mutex> lock(g_hooks_mutex);
  for (const thread_create_hook& h : g_hooks) {
    if ((h.libs & ROCPROFILER_LIBRARY) == 0) continue;
    auto fn = before ? h.pre : h.post;
    if (fn != nullptr) fn(ROCPROFILER_LIBRARY, h.data);
  }
}

callback_thread* find_callback_thread(rocprofiler_callback_thread_t id) {
  const uint32_t n = g_num_callback_threads.load(std::memory_order_acquire);
  if (id.handle == 0 || id.handle > n) return nullptr;
  return g_callback_threads[id.handle - 1];
}

callback_thread* create_callback_thread() {
  std::lock_guard<std::mutex> lock(g_create_mutex);
  const uint32_t n = g_num_callback_threads.load();
  if (n >= max_callback_threads) return nullptr;
  // Under g_create_mutex, so no static guard: registered with the first thread.
  static bool registered = false;
  if (!registered) {
    guard_across_fork(g_hooks_mutex);
    pthread_atfork(quiesce_before_fork, resume_after_fork_in_parent, restart_after_fork);
    registered = true;
  }
  // Owned here until the thread runs: a failure (no memory, no thread to be had) leaves no
  // half-made entry in the table, and a later call may try again.
  std::unique_ptr<callback_thread> t{new (std::nothrow) callback_thread()};
  if (t == nullptr) return nullptr;
  t->index = n;
  t->running.store(true);
  run_internal_thread_callbacks(true);
  t->worker = start_worker(t.get());
  run_internal_thread_callbacks(false);
  if (t->worker == nullptr) return nullptr;
  g_callback_threads[n] = t.get();
  g_num_callback_threads.store(n + 1, std::memory_order_release);
  return t.release();
}

callback_thread* default_callback_thread() {
  // Made on first use; a failed attempt is tried again by the next buffer.
  static std::atomic<callback_thread*> t{nullptr};
  static std::mutex m;
  if (callback_thread* made = t.load(std::memory_order_acquire)) return made;
  std::lock_guard<std::mutex> lock(m);
  if (t.load() == nullptr) t.store(create_callback_thread(), std::memory_order_release);
  return t.load();
}

void assign_buffer(buffer* b, callback_thread* t) {
  if (b->thread == t) return;
  if (b->thread != nullptr) {
    std::lock_guard<std::mutex> lock(b->thread->mutex);
    auto& v = b->thread->buffers;
    v.erase(std::remove(v.begin(), v.end(), b), v.end());
  }
  {
    std::lock_guard<std::mutex> lock(t->mutex);
    t->buffers.push_back(b);
  }
  b->thread = t;
}

void wake_callback_thread(callback_thread* t) {
  t->wake.notify_one();
}

rocprofiler_status_t flush_buffer(buffer* b) {
  thread_state* st = current_thread();
  const uint64_t self = st != nullptr ? st->tid : 0;
  if (b->delivering_tid.load() == self && self != 0) return ROCPROFILER_STATUS_ERROR_BUFFER_BUSY;
  callback_thread* t = b->thread;
  if (t == nullptr || !t->running.load() || t->tid.load() == self) {
    buffer_consume(b, true);  // no delivery thread to ask (or we are it)
    return ROCPROFILER_STATUS_SUCCESS;
  }
  std::unique_lock<std::mutex> lock(t->mutex);
  const uint64_t ticket = ++t->flush_requested;
  t->wake.notify_one();
  t->flushed.wait(lock, [&] { return t->flush_completed >= ticket || !t->running.load(); });
  return ROCPROFILER_STATUS_SUCCESS;
}

void stop_callback_threads() {
  const uint32_t n = g_num_callback_threads.load();
  for (uint32_t i = 0; i < n; ++i) {
    callback_thread* t = g_callback_threads[i];
    {
      std::lock_guard<std::mutex> lock(t->mutex);
      t->stop_requested = true;
    }
    t->wake.notify_one();
    if (t->worker != nullptr && t->worker->joinable()) t->worker->join();
  }
}

}  // namespace rocprof::core

extern "C" {

using rocprof::core::guarded;

ROCPROFILER_API rocprofiler_status_t rocprofiler_at_internal_thread_create(
    rocprofiler_internal_thread_library_cb_t precreate,
    rocprofiler_internal_thread_library_cb_t postcreate, int libs, void* data) {
  using namespace rocprof::core;
  return guarded(__func__, [&] {
    std::lock_guard<std::mutex> lock(g_hooks_mutex);
    g_hooks.push_back(thread_create_hook{precreate, postcreate, libs, data});
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_create_callback_thread(rocprofiler_callback_thread_t* cb_thread_id) {
  using namespace rocprof::core;
  return guarded(__func__, [&] {
    if (!configuration_open()) return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    callback_thread* t = create_callback_thread();
    if (t == nullptr) return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
    cb_thread_id->handle = callback_thread_handle(t->index);
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_assign_callback_thread(
    rocprofiler_buffer_id_t buffer_id, rocprofiler_callback_thread_t cb_thread_id) {
  using namespace rocprof::core;
  return guarded(__func__, [&] {
    if (!configuration_open()) return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    buffer* b = find_buffer(buffer_id);
    if (b == nullptr) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    callback_thread* t = find_callback_thread(cb_thread_id);
    if (t == nullptr) return ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND;
    assign_buffer(b, t);
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

}  // extern "C"
