// Capturing the calling thread's stack in a launch callback: _Unwind_Backtrace (libgcc, no
// allocation; with glibc 2.35+ it finds each frame's unwind table through _dl_find_object,
// without the loader's lock). The profiler's own frames (the callback, the core, the CUDA
// plugin, CUPTI) sit on top of the stack: frames inside the code ranges given are skipped
// until the first frame outside them, so stacks start at the CUDA library the application
// called.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace rocprof::callstack {

struct code_range {
  uintptr_t begin = 0, end = 0;  // [begin, end)
};

// Code ranges to skip: a fixed array, filled once before the first capture.
struct skip_ranges {
  static constexpr size_t capacity = 32;
  code_range ranges[capacity] = {};
  size_t count = 0;

  bool contains(uintptr_t address) const;
  void add(code_range range);
};

// The executable segments of every loaded module whose file name (last path component)
// starts with one of `prefixes` (e.g. "librocprofiler-sdk", "libcupti"). Takes the loader's
// lock (dl_iterate_phdr): call it once, outside the hot path.
skip_ranges ranges_of_modules(const std::string_view* prefixes, size_t count);

// The executable segments of the module that contains `address`.
skip_ranges ranges_of_module_at(const void* address);

// Which unwinder capture_stack uses. libgcc's _Unwind_Backtrace reads and runs each frame's CFI
// every time (~100-300 ns a frame); libunwind's unw_backtrace (libunwind.so.8, the nongnu
// libunwind) caches each return address's frame layout per thread and walks known frames in a
// few ns: about 20 times faster on the same stack (docs/performance.md).
enum class unwinder : uint8_t { libgcc, libunwind };

// Loads libunwind.so.8 when `prefer_libunwind` and the process can (nothing to build against:
// one function is looked up), else stays with libgcc. Call once before capturing (it takes the
// loader's lock); returns the unwinder capture_stack uses from then on.
unwinder select_unwinder(bool prefer_libunwind);
unwinder current_unwinder();

// Up to `max` return addresses of the calling thread, innermost first, leading frames in `skip`
// left out. Returns how many were written.
uint32_t capture_stack(uintptr_t* out, uint32_t max, const skip_ranges& skip);

}  // namespace rocprof::callstack
