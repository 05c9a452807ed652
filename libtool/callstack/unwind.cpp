#include "unwind.hpp"

#include <dlfcn.h>
#include <link.h>
#include <unwind.h>

#include <atomic>
#include <cstring>

namespace rocprof::callstack {

bool skip_ranges::contains(uintptr_t address) const {
  for (size_t i = 0; i < count; ++i)
    if (address >= ranges[i].begin && address < ranges[i].end) return true;
  return false;
}

void skip_ranges::add(code_range range) {
  if (count < capacity) ranges[count++] = range;
}

namespace {

void add_executable_segments(const dl_phdr_info& info, skip_ranges& out) {
  for (ElfW(Half) i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info.dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_X) == 0) continue;
    const uintptr_t begin = info.dlpi_addr + ph.p_vaddr;
    out.add(code_range{begin, begin + ph.p_memsz});
  }
}

std::string_view file_name(const char* path) {
  if (path == nullptr) return {};
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? std::string_view{slash + 1} : std::string_view{path};
}

struct module_query {
  const std::string_view* prefixes;
  size_t count;
  uintptr_t address;  // 0: match by prefix
  skip_ranges* out;
};

int visit_module(dl_phdr_info* info, size_t, void* data) {
  auto& q = *static_cast<module_query*>(data);
  if (q.address != 0) {
    skip_ranges own;
    add_executable_segments(*info, own);
    if (own.contains(q.address)) add_executable_segments(*info, *q.out);
    return 0;
  }
  const std::string_view name = file_name(info->dlpi_name);
  for (size_t i = 0; i < q.count; ++i)
    if (name.substr(0, q.prefixes[i].size()) == q.prefixes[i]) {
      add_executable_segments(*info, *q.out);
      break;
    }
  return 0;
}

struct unwind_state {
  uintptr_t* out;
  uint32_t max;
  uint32_t count;
  const skip_ranges* skip;
  bool leading;  // still inside the skipped top of the stack
};

_Unwind_Reason_Code on_frame(_Unwind_Context* context, void* data) {
  auto& s = *static_cast<unwind_state*>(data);
  const auto ip = static_cast<uintptr_t>(_Unwind_GetIP(context));
  if (ip == 0) return _URC_END_OF_STACK;
  if (s.leading && s.skip->contains(ip)) return _URC_NO_REASON;
  s.leading = false;
  s.out[s.count++] = ip;
  return s.count < s.max ? _URC_NO_REASON : _URC_END_OF_STACK;
}

// libunwind's unw_backtrace(void** buffer, int size), when loaded.
using unw_backtrace_fn = int (*)(void**, int);
std::atomic<unw_backtrace_fn> g_unw_backtrace{nullptr};

// Frames libunwind may return above the profiler's (its leading ones are skipped like ours).
constexpr uint32_t max_raw_frames = 96;

uint32_t capture_with_libunwind(unw_backtrace_fn backtrace, uintptr_t* out, uint32_t max,
                                const skip_ranges& skip) {
  void* raw[max_raw_frames];
  const int n = backtrace(raw, static_cast<int>(max_raw_frames));
  uint32_t count = 0;
  bool leading = true;
  for (int i = 0; i < n && count < max; ++i) {
    const auto ip = reinterpret_cast<uintptr_t>(raw[i]);
    if (ip == 0) break;
    if (leading && skip.contains(ip)) continue;
    leading = false;
    out[count++] = ip;
  }
  return count;
}

}  // namespace

unwinder select_unwinder(bool prefer_libunwind) {
  unw_backtrace_fn fn = nullptr;
  if (prefer_libunwind) {
    // RTLD_LOCAL: its _Unwind_* and backtrace() stay out of the application's symbol lookup.
    if (void* lib = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE))
      fn = reinterpret_cast<unw_backtrace_fn>(dlsym(lib, "unw_backtrace"));
  }
  g_unw_backtrace.store(fn, std::memory_order_release);
  return current_unwinder();
}

unwinder current_unwinder() {
  return g_unw_backtrace.load(std::memory_order_acquire) != nullptr ? unwinder::libunwind
                                                                    : unwinder::libgcc;
}

skip_ranges ranges_of_modules(const std::string_view* prefixes, size_t count) {
  skip_ranges out;
  module_query q{prefixes, count, 0, &out};
  dl_iterate_phdr(visit_module, &q);
  return out;
}

skip_ranges ranges_of_module_at(const void* address) {
  skip_ranges out;
  module_query q{nullptr, 0, reinterpret_cast<uintptr_t>(address), &out};
  dl_iterate_phdr(visit_module, &q);
  return out;
}

uint32_t capture_stack(uintptr_t* out, uint32_t max, const skip_ranges& skip) {
  if (out == nullptr || max == 0) return 0;
  if (const unw_backtrace_fn fast = g_unw_backtrace.load(std::memory_order_acquire))
    return capture_with_libunwind(fast, out, max, skip);
  unwind_state s{out, max, 0, &skip, true};
  _Unwind_Backtrace(on_frame, &s);
  return s.count;
}

}  // namespace rocprof::callstack
