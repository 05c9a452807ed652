// The unwinder and the libdw symbolizer on this file, built with -g -O0: a stack captured in a
// known function resolves to that function, this file and the line of the call.
#include <gtest/gtest.h>

#include <string>

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
