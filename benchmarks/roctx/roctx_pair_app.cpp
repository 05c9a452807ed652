// Cost of a roctxRangePushA + roctxRangePop pair with the real tool library loaded, as
// `rocprofv3 --marker-trace` loads it: this program is an ordinary ROCTx application (it links
// only the ROCTx library) and run_with_tool.py starts it under rocprofv3 (or with the
// environment rocprofv3 sets). On 1 and 8 threads, printed as a ratio to two
// clock_gettime(CLOCK_BOOTTIME) calls measured in the same run.
//
// Refuses to run (exit 2) without the profiler core in the process, so that it never reports
// the cost of the unprofiled path by mistake. Prints how many thread-range records the tool
// must write, for the driver to check against the outputs.
#include <dlfcn.h>

#include <cstdio>

#include "pair_timing.hpp"

int main(int argc, char** argv) {
  const roctx_bench::options options = roctx_bench::options_from(argc, argv);
  // The first ROCTx call initialises the core (tools found and configured) if it is loaded.
  roctxMarkA("roctx_pair_app start");
  using is_initialized_fn = int (*)(int*);
  auto* is_initialized =
      reinterpret_cast<is_initialized_fn>(dlsym(RTLD_DEFAULT, "rocprofiler_is_initialized"));
  int initialized = 0;
  if (is_initialized == nullptr || is_initialized(&initialized) != 0 || initialized == 0) {
    std::fprintf(stderr,
                 "roctx_pair_app: no profiler core loaded; run it through "
                 "run_with_tool.py or rocprofv3 --marker-trace\n");
    return 2;
  }
  const uint64_t pairs = roctx_bench::measure_and_print("real tool", options);
  std::printf("thread ranges recorded: %llu\n", static_cast<unsigned long long>(pairs));
  return 0;
}
