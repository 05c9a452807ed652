// How the core finds tools: ROCP_TOOL_LIBRARIES, the library constructor
// (ROCPROFILER_LIBRARY_CTOR=1), the scan of loaded objects, and a tool whose initialize fails.
// Registration happens once per process, so CTest runs each case in its own process with the
// environment it needs (ROCPROF_TEST_MODE names the case).
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <rocprofiler-sdk/backend/markers.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <cstdlib>
#include <string>

namespace {

bool mode_is(const char* name) {
  const char* mode = std::getenv("ROCPROF_TEST_MODE");
  return mode != nullptr && std::string(mode) == name;
}

#define REQUIRE_MODE(name) \
  if (!mode_is(name)) GTEST_SKIP() << "run by CTest with ROCPROF_TEST_MODE=" name

template <typename Fn>
Fn tool_symbol(void* handle, const char* name) {
  return reinterpret_cast<Fn>(dlsym(handle, name));
}

int initialized() {
  int status = -2;
  EXPECT_EQ(rocprofiler_is_initialized(&status), ROCPROFILER_STATUS_SUCCESS);
  return status;
}

void* loaded_tool() {
  return dlopen(ROCPROF_TEST_TOOL_LIBRARY, RTLD_NOLOAD | RTLD_NOW);
}

TEST(registration, env_tool_libraries) {
  REQUIRE_MODE("env");
  EXPECT_EQ(initialized(), 0) << "nothing initialises the core before its first use";
  rocprof_marker_mark(nullptr, "first use");
  EXPECT_EQ(initialized(), 1);
  void* tool = loaded_tool();
  ASSERT_NE(tool, nullptr) << "the core loaded the tool from ROCP_TOOL_LIBRARIES";
  EXPECT_EQ(tool_symbol<int (*)()>(tool, "test_tool_configure_calls")(), 1);
  EXPECT_EQ(tool_symbol<int (*)()>(tool, "test_tool_initialize_calls")(), 1);
  int valid = 0;
  const rocprofiler_context_id_t ctx{tool_symbol<uint64_t (*)()>(tool, "test_tool_context")()};
  EXPECT_EQ(rocprofiler_context_is_valid(ctx, &valid), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(valid, 1);
  // fini_func finalises the tool now, once.
  tool_symbol<void (*)()>(tool, "test_tool_finalize_now")();
  tool_symbol<void (*)()>(tool, "test_tool_finalize_now")();
  EXPECT_EQ(tool_symbol<int (*)()>(tool, "test_tool_finalize_calls")(), 1);
  // As in rocprofiler-sdk, the tool's contexts were stopped before its finalize ran.
  int active = -1;
  EXPECT_EQ(rocprofiler_context_is_active(ctx, &active), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(active, 0);
}

TEST(registration, library_constructor) {
  REQUIRE_MODE("ctor");
  EXPECT_EQ(initialized(), 1) << "initialised while the library loaded, before main";
  void* tool = loaded_tool();
  ASSERT_NE(tool, nullptr);
  EXPECT_EQ(tool_symbol<int (*)()>(tool, "test_tool_initialize_calls")(), 1);
}

TEST(registration, link_map_scan) {
  REQUIRE_MODE("scan");
  // Loaded privately: invisible to RTLD_DEFAULT, only the scan of loaded objects finds it.
  void* tool = dlopen(ROCPROF_TEST_TOOL_LIBRARY, RTLD_LOCAL | RTLD_NOW);
  ASSERT_NE(tool, nullptr) << dlerror();
  EXPECT_EQ(dlsym(RTLD_DEFAULT, "rocprofiler_configure"), nullptr);
  EXPECT_EQ(initialized(), 0);
  rocprof_marker_mark(nullptr, "first use");
  EXPECT_EQ(initialized(), 1);
  EXPECT_EQ(tool_symbol<int (*)()>(tool, "test_tool_configure_calls")(), 1);
  EXPECT_EQ(tool_symbol<int (*)()>(tool, "test_tool_initialize_calls")(), 1);
}

TEST(registration, finalized_at_exit_after_delivery) {
  REQUIRE_MODE("atexit");
  rocprof_marker_mark(nullptr, "one");
  rocprof_marker_push(nullptr, "two");
  rocprof_marker_pop(nullptr);
  rocprof_marker_mark(nullptr, "three");
  void* tool = loaded_tool();
  ASSERT_NE(tool, nullptr);
  EXPECT_EQ(tool_symbol<int (*)()>(tool, "test_tool_finalize_calls")(), 0)
      << "finalize waits for exit";
}

TEST(registration, failed_initialize) {
  REQUIRE_MODE("fail");
  rocprof_marker_mark(nullptr, "first use");
  void* tool = loaded_tool();
  ASSERT_NE(tool, nullptr);
  EXPECT_EQ(tool_symbol<int (*)()>(tool, "test_tool_initialize_calls")(), 1);
  const rocprofiler_context_id_t ctx{tool_symbol<uint64_t (*)()>(tool, "test_tool_context")()};
  int valid = 1;
  EXPECT_EQ(rocprofiler_context_is_valid(ctx, &valid), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(valid, 0) << "what a failed tool created is ignored";
  EXPECT_EQ(rocprofiler_start_context(ctx), ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID);
}

}  // namespace
