// The C boundary: no exception leaves a function that C code calls (design STYLE.md §2).
//
// Every exported entry point of the core, ROCTx, the CUDA plugin and the tool library runs its
// body through guarded_or() / guarded_call(). An exception becomes the function's documented
// error value (a status, -1, 0, nullptr), is reported once per library on stderr, and the
// caller carries on: a profiler fault degrades the profile, never the application. Allocation
// failure is told apart (std::bad_alloc -> on_out_of_memory) because the C API has a status
// for it. Header-only and dependency-free, so that libraries that link nothing of each other
// (the core, ROCTx, backend plugins, the tool) share the one wrapper.
//
// The report allocates nothing and takes no lock: it may follow a failed allocation, and it
// may run on a thread that holds the application's locks.
#pragma once

#include <cxxabi.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <exception>
#include <new>
#include <utility>

namespace rocprof::c_boundary {

/// Writes "rocprofv3: <where>: <what>; ..." to stderr, the first time only (per library).
inline void report(const char* where, const char* what) noexcept {
  static std::atomic<bool> reported{false};
  if (reported.exchange(true, std::memory_order_relaxed)) return;
  const char* const parts[] = {"rocprofv3: ", where, ": ", what,
                               "; the call returned an error and the application continues\n"};
  for (const char* part : parts) {
    const ssize_t ignored = ::write(STDERR_FILENO, part, std::strlen(part));
    (void)ignored;
  }
}

/// fn()'s result, or on_out_of_memory (std::bad_alloc) / on_error (any other exception).
/// `where` names the entry point in the report (pass __func__).
template <typename T, typename Fn>
T guarded_or(const char* where, T on_out_of_memory, T on_error, Fn&& fn) {
  try {
    return std::forward<Fn>(fn)();
  } catch (abi::__forced_unwind&) {
    throw;  // thread cancellation must unwind through us, or the runtime aborts
  } catch (const std::bad_alloc&) {
    report(where, "out of memory");
    return on_out_of_memory;
  } catch (const std::exception& error) {
    report(where, error.what());
    return on_error;
  } catch (...) {
    report(where, "unknown exception");
    return on_error;
  }
}

/// The same with one error value for every exception.
template <typename T, typename Fn>
T guarded_or(const char* where, T on_error, Fn&& fn) {
  return guarded_or(where, on_error, on_error, std::forward<Fn>(fn));
}

/// For functions that return nothing: an exception is reported and swallowed.
template <typename Fn>
void guarded_call(const char* where, Fn&& fn) {
  guarded_or(where, false, [&fn] {
    fn();
    return true;
  });
}

}  // namespace rocprof::c_boundary
