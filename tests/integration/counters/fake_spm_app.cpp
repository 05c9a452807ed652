// A program whose "GPU" is the test backend's device sampler (tests/unit/profiler/
// test_backend_sampler.cpp): under rocprofv3 --spm with ROCPROF_BACKEND_DIR naming the test
// backend's folder, it makes the sampler deliver hardware samples with known values and times,
// so the path CLI -> tool -> core SPM service -> backend -> writers is checked without a GPU.
//   usage: fake_spm_app BACKEND_LIBRARY
// It delivers 3 idle samples (value 0), 5 busy ones (value 32) and 2 idle ones, each 1000 ns
// long from a CLOCK_BOOTTIME start, and prints "SAMPLES <count> <value> <start_ns>" per batch.
#include <dlfcn.h>
#include <time.h>

#include <cstdint>
#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s BACKEND_LIBRARY\n", argv[0]);
    return 2;
  }
  void* backend = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);
  using samples_fn = uint64_t (*)(uint32_t, double, uint64_t, uint32_t);
  auto deliver = backend != nullptr
                     ? reinterpret_cast<samples_fn>(dlsym(backend, "test_backend_device_samples"))
                     : nullptr;
  if (deliver == nullptr) {
    std::fprintf(stderr, "the test backend is not loaded or has no device sampler\n");
    return 3;
  }
  timespec ts{};
  clock_gettime(CLOCK_BOOTTIME, &ts);
  uint64_t start = static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + ts.tv_nsec;
  const struct {
    uint32_t count;
    double value;
  } batches[] = {{3, 0.0}, {5, 32.0}, {2, 0.0}};
  for (const auto& b : batches) {
    const uint64_t running = deliver(b.count, b.value, start, 0);
    std::printf("SAMPLES %u %g %llu samplers %llu\n", b.count, b.value,
                static_cast<unsigned long long>(start), static_cast<unsigned long long>(running));
    start += b.count * 1000ull;
  }
  return 0;
}
