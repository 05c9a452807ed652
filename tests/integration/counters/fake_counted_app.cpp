// A program whose "kernels" are the test backend's counted launches (tests/unit/profiler/
// test_backend.cpp): run under rocprofv3 with ROCPROF_BACKEND_DIR naming the test backend's
// folder, each launch goes through the core's dispatch counting service and the tool exactly as
// a GPU backend's would, so the whole path CLI -> tool -> core -> backend -> writers is checked
// without a GPU. The core loads the backend; this program only finds it (RTLD_NOLOAD).
//   usage: fake_counted_app BACKEND_LIBRARY [LAUNCHES]
// Launch i has a grid of 1024 * (1 + i % 4) threads; it prints one "LAUNCH dispatch grid" line
// per launch so the check can predict every value.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s BACKEND_LIBRARY [LAUNCHES]\n", argv[0]);
    return 2;
  }
  void* backend = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);
  if (backend == nullptr) {
    std::fprintf(stderr, "the test backend is not loaded: %s\n", dlerror());
    return 3;
  }
  using launch_fn = uint64_t (*)(uint32_t);
  auto launch = reinterpret_cast<launch_fn>(dlsym(backend, "test_backend_counted_launch"));
  if (launch == nullptr) {
    std::fprintf(stderr, "the test backend has no counted launch\n");
    return 3;
  }
  const long launches = argc > 2 ? std::strtol(argv[2], nullptr, 10) : 8;
  for (long i = 0; i < launches; ++i) {
    const auto grid = static_cast<uint32_t>(1024 * (1 + i % 4));
    const uint64_t dispatch = launch(grid);
    std::printf("LAUNCH %llu %u\n", static_cast<unsigned long long>(dispatch), grid);
  }
  return 0;
}
