// The unwinder and the libdw symbolizer on this file, built with -g -O0: a stack captured in a
// known function resolves to that function, this file and the line of the call.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "stack_table.hpp"
#include "symbolizer.hpp"
#include "unwind.hpp"

namespace rocprof::callstack {
namespace {

int capture_line = 0;

__attribute__((noinline)) uint32_t callstack_probe_function(uintptr_t* frames, uint32_t max) {
  // clang-format off
  capture_line = __LINE__; const uint32_t n = capture_stack(frames, max, skip_ranges{});
  // clang-format on
  return n + 0;  // not a tail call: the return address stays in this function
}

TEST(Unwind, CapturesTheCallerAndResolvesFunctionFileLine) {
  uintptr_t frames[max_frames] = {};
  const uint32_t n = callstack_probe_function(frames, max_frames);
  ASSERT_GE(n, 2u);
  symbolizer sym;
  ASSERT_TRUE(sym.ok());
  bool found = false;
  for (uint32_t i = 0; i < n && !found; ++i) {
    const resolved_frame f = sym.resolve(frames[i]);
    if (f.function.find("callstack_probe_function") == std::string::npos) continue;
    found = true;
    EXPECT_NE(f.file.find("resolve_test.cpp"), std::string::npos) << f.file;
    EXPECT_EQ(f.line, static_cast<uint32_t>(capture_line));
    EXPECT_NE(f.module.find("callstack_unit_tests"), std::string::npos) << f.module;
    EXPECT_GT(f.module_offset, 0u);
    // The demangled name carries the parameter list.
    EXPECT_NE(f.function.find("rocprof::callstack::"), std::string::npos) << f.function;
  }
  EXPECT_TRUE(found);
}

int inlined_line = 0, caller_line = 0;

// Inlined even at -O0: the capture's return address lies in the caller's code.
__attribute__((always_inline)) inline uint32_t inlined_probe(uintptr_t* frames, uint32_t max) {
  // clang-format off
  inlined_line = __LINE__; const uint32_t n = capture_stack(frames, max, skip_ranges{});
  // clang-format on
  return n;
}

__attribute__((noinline)) uint32_t inlining_caller(uintptr_t* frames, uint32_t max) {
  // clang-format off
  caller_line = __LINE__; const uint32_t n = inlined_probe(frames, max);
  // clang-format on
  return n + 0;
}

TEST(Symbolizer, ExpandsInlinedCallsIntoFrames) {
  uintptr_t frames[max_frames] = {};
  const uint32_t n = inlining_caller(frames, max_frames);
  symbolizer sym;
  std::vector<resolved_frame> all;
  for (uint32_t i = 0; i < n; ++i)
    for (auto& f : sym.resolve_inlined(frames[i]))
      all.push_back(std::move(f));
  size_t inlined = all.size();
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].function.find("inlined_probe") != std::string::npos) inlined = i;
  ASSERT_LT(inlined + 1, all.size());
  EXPECT_EQ(all[inlined].line, static_cast<uint32_t>(inlined_line));
  // The next frame is the caller, at the line of the inlined call, at the same address.
  EXPECT_NE(all[inlined + 1].function.find("inlining_caller"), std::string::npos)
      << all[inlined + 1].function;
  EXPECT_EQ(all[inlined + 1].line, static_cast<uint32_t>(caller_line));
  EXPECT_NE(all[inlined + 1].file.find("resolve_test.cpp"), std::string::npos);
  EXPECT_EQ(all[inlined + 1].address, all[inlined].address);
}

// libgcc's unwinder and libunwind's cached one see the same callers (from the same call site).
TEST(Unwind, LibunwindAndLibgccAgreeOnTheCallers) {
  uintptr_t frames[2][max_frames] = {};
  uint32_t n[2] = {};
  bool have_libunwind = true;
  for (int which = 0; which < 2; ++which) {
    const bool libunwind = which == 1;
    if (select_unwinder(libunwind) != (libunwind ? unwinder::libunwind : unwinder::libgcc)) {
      have_libunwind = false;
      break;
    }
    n[which] = callstack_probe_function(frames[which], max_frames);
  }
  select_unwinder(false);
  if (!have_libunwind) GTEST_SKIP() << "libunwind.so.8 cannot be loaded here";
  symbolizer sym;
  // From the probe function outwards the two stacks are the same addresses.
  auto from_probe = [&sym](const uintptr_t* f, uint32_t count) {
    std::vector<uintptr_t> tail;
    for (uint32_t i = 0; i < count; ++i)
      if (!tail.empty() ||
          sym.resolve(f[i]).function.find("callstack_probe_function") != std::string::npos)
        tail.push_back(f[i]);
    return tail;
  };
  const auto a = from_probe(frames[0], n[0]), b = from_probe(frames[1], n[1]);
  ASSERT_GE(a.size(), 2u);
  EXPECT_EQ(a, b);
}

TEST(Unwind, SkipsLeadingFramesOfGivenModules) {
  // Skipping this executable's code leaves only frames of other modules (libc's start code).
  const skip_ranges own = ranges_of_module_at(reinterpret_cast<const void*>(&capture_stack));
  ASSERT_GT(own.count, 0u);
  uintptr_t frames[max_frames] = {};
  const uint32_t n = capture_stack(frames, max_frames, own);
  ASSERT_GT(n, 0u);
  EXPECT_FALSE(own.contains(frames[0]));
}

TEST(Unwind, ModulesByNamePrefix) {
  const std::string_view prefixes[] = {"libc.so", "libc-"};
  const skip_ranges libc = ranges_of_modules(prefixes, 2);
  EXPECT_GT(libc.count, 0u);
  EXPECT_FALSE(libc.contains(reinterpret_cast<uintptr_t>(&capture_stack)));
}

TEST(Symbolizer, UnknownAddressKeepsOnlyTheAddress) {
  symbolizer sym;
  const resolved_frame f = sym.resolve(0x10);
  EXPECT_EQ(f.address, 0x10u);
  EXPECT_TRUE(f.function.empty());
  EXPECT_TRUE(f.module.empty());
}

TEST(Symbolizer, Demangles) {
  EXPECT_EQ(demangle_symbol("_Z3fooi"), "foo(int)");
  EXPECT_EQ(demangle_symbol("main"), "main");
}

}  // namespace
}  // namespace rocprof::callstack
