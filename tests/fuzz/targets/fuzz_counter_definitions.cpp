// Counter definition files (the shipped counter_defs.yaml, -E/--extra-counters): any text loads
// or gives errors; no exception, crash or hang.
#include "fuzz_text.hpp"
#include "rocprof/counters/definitions.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto result =
      rocprof::counters::parse_definitions(rocprof::fuzz::text_of(data, size), "fuzz.yaml");
  if (!result.ok() && result.errors.empty()) rocprof::fuzz::broken("a failure without errors");
  return 0;
}
