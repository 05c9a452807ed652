// Both libraries loaded with dlopen (RTLD_GLOBAL, in the order given): the same names found in
// each handle are different functions, each reached through its own handle behaves as its own
// library, and the v2 library reaches the core. Prints "both libraries: ok" on success.
//   usage: both_dlopen FIRST_LIBRARY SECOND_LIBRARY (the paths of the two, either order)
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "dlopen_sides.hpp"

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  void* first = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  void* second = dlopen(argv[2], RTLD_NOW | RTLD_GLOBAL);
  if (first == nullptr || second == nullptr) {
    std::printf("FAIL: dlopen: %s\n", dlerror());
    return 1;
  }
  const bool v2_first = std::strstr(argv[1], "rocprofiler64v2") != nullptr;
  void* v2 = v2_first ? first : second;
  void* core = v2_first ? second : first;
  int failures = 0;
  const auto expect = [&](bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
    failures += ok ? 0 : 1;
  };
  for (const char* name : {"rocprofiler_create_buffer", "rocprofiler_get_timestamp",
                           "rocprofiler_destroy_buffer", "rocprofiler_query_counter_info"})
    expect(dlsym(v2, name) != dlsym(core, name), name);
  expect(dlopen_sides::v2_create_buffer(v2) == -3, "v2 create_buffer through the v2 handle");
  expect(dlopen_sides::core_create_buffer(core) > 0, "core create_buffer through the core handle");
  expect(dlopen_sides::v2_initialize(v2) == 0, "v2 initialize");
  expect(dlopen_sides::core_initialized(core) == 1, "v2 initialize initialised the core");
  expect(dlopen_sides::v2_finalize(v2) == 0, "v2 finalize");
  if (failures == 0) std::printf("both libraries: ok\n");
  return failures == 0 ? 0 : 1;
}
