// One program linked to both librocprofiler64v2.so and librocprofiler-sdk.so (built twice, in
// both link orders): each call of a shared name reaches its own library, told apart by the
// status it returns (v2's are negative, the core's positive), and v2's initialize reaches the
// core. Prints "both libraries: ok" on success.
#include <cstdio>

#include "both_libraries.hpp"

int main() {
  int failures = 0;
  const auto expect = [&](bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
    failures += ok ? 0 : 1;
  };
  // v2 before rocprofiler_initialize: NOT_INITIALIZED (-3).
  expect(both::v2_create_buffer_status() == -3, "v2 rocprofiler_create_buffer reached v2");
  // The core outside a tool's initialisation: an error status > 0 (never v2's negative ones).
  const int core_status = both::core_create_buffer_status();
  expect(core_status > 0, "core rocprofiler_create_buffer reached the core");
  expect(both::v2_timestamp() != 0 && both::core_timestamp() != 0, "both timestamps");
  expect(both::v2_initialize() == 0, "v2 initialize");
  expect(both::core_initialized() == 1, "v2 initialize initialised the core (v2 reached it)");
  expect(both::v2_create_buffer_status() == -17, "v2 create_buffer: SESSION_NOT_FOUND after init");
  expect(both::v2_finalize() == 0, "v2 finalize");
  if (failures == 0) std::printf("both libraries: ok\n");
  return failures == 0 ? 0 : 1;
}
