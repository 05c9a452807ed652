// Plays a CUDA application on a machine without a GPU: loads the fake libcupti ($CUPTI_LIB),
// calls the plugin's InitializeInjection as the CUDA driver would at cuInit
// ($CUDA_INJECTION64_PATH, set by rocprofv3), then plays GPU work through the fake CUPTI.
//
//   fake_cuda_app          5 kernel launches and one 4 KiB host-to-device copy.
//   fake_cuda_app ranges   launches inside ROCTx and NVTX ranges, for --kernel-rename:
//     main thread: 1 x "_Z11fake_kernelPf" outside any range,
//                  ROCTx "roctx_outer" { 2 launches, one 1 KiB copy,
//                                        NVTX "nvtx_inner" { 3 launches }, 1 launch },
//     a second thread: ROCTx "worker_range" { 2 launches } while the main thread waits
//     outside any range, then 1 more launch on the main thread outside any range.
//   The activity records arrive only at the final flush, after every range has ended, so a
//   region name can only come from what was captured at launch time.
//   fake_cuda_app bench N   N runtime launches each with a nested driver launch, timed with an
//     empty callback, a minimal collector and the profiler (benchmarks/cuda_callbacks); prints
//     FAKE_CUPTI_BENCH {json} and nothing else.
// Before any launch, both modes "load a module" whose cubin is this executable: its symbol table
// defines _Z11fake_kernelPf (fake_kernel below), so the kernel links to that code object.
// Prints FAKE_CUDA_APP_SUMMARY {json}.
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <rocprofiler-sdk-roctx/roctx.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

// The "kernel" the fake launches name (mangled _Z11fake_kernelPf); never called on a GPU, kept
// in the symbol table for the module load.
__attribute__((noinline, used)) void fake_kernel(float* out);
__attribute__((noinline, used)) void fake_kernel(float* out) {
  if (out != nullptr) *out = 0.0F;
}

namespace {

using launch_fn = void (*)(const char*, int);
using copy_fn = void (*)(unsigned long long);
using load_module_fn = void (*)(const void*, size_t, uint32_t);

constexpr const char* kernel = "_Z11fake_kernelPf";

void play_ranges(launch_fn launch, copy_fn copy) {
  launch(kernel, 1);
  roctxRangePushA("roctx_outer");
  launch(kernel, 2);
  copy(1024);
  nvtxRangePushA("nvtx_inner");
  launch(kernel, 3);
  nvtxRangePop();
  launch(kernel, 1);
  roctxRangePop();
  // Launches of another thread take that thread's range, not the main thread's.
  std::thread worker{[launch] {
    roctxRangePushA("worker_range");
    launch(kernel, 2);
    roctxRangePop();
  }};
  worker.join();
  launch(kernel, 1);
  std::printf(
      "FAKE_CUDA_APP_SUMMARY {\"kernels\": 10, \"h2d_bytes\": 1024, \"regions\": "
      "{\"\": 2, \"roctx_outer\": 3, \"nvtx_inner\": 3, \"worker_range\": 2}}\n");
}

}  // namespace

int main(int argc, char** argv) {
  const char* cupti = std::getenv("CUPTI_LIB");
  const char* plugin = std::getenv("CUDA_INJECTION64_PATH");
  if (cupti == nullptr || plugin == nullptr) {
    std::fprintf(stderr,
                 "fake_cuda_app: set CUPTI_LIB (fake libcupti) and CUDA_INJECTION64_PATH\n");
    return 2;
  }
  void* fake = dlopen(cupti, RTLD_NOW | RTLD_GLOBAL);
  void* injected = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);
  if (fake == nullptr || injected == nullptr) {
    std::fprintf(stderr, "fake_cuda_app: %s\n", dlerror());
    return 2;
  }
  auto init = reinterpret_cast<int (*)()>(dlsym(injected, "InitializeInjection"));
  auto launch = reinterpret_cast<launch_fn>(dlsym(fake, "fake_cupti_launch"));
  auto copy = reinterpret_cast<copy_fn>(dlsym(fake, "fake_cupti_memcpy_h2d"));
  auto load_module = reinterpret_cast<load_module_fn>(dlsym(fake, "fake_cupti_load_module"));
  if (init == nullptr || launch == nullptr || copy == nullptr || load_module == nullptr) return 2;
  // A fake driver on the library path (fake_cuda_driver) plays cuInit's inside around the
  // injection: the profiler must make no driver call there (the real driver broke).
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  auto set_initialising = reinterpret_cast<void (*)(int)>(
      driver != nullptr ? dlsym(driver, "fake_cuda_driver_set_initialising") : nullptr);
  if (set_initialising != nullptr) set_initialising(1);
  init();
  if (set_initialising != nullptr) set_initialising(0);
  std::ifstream self{"/proc/self/exe", std::ios::binary};
  const std::vector<char> image{std::istreambuf_iterator<char>{self}, {}};
  load_module(image.data(), image.size(), 1);
  if (argc > 2 && std::strcmp(argv[1], "bench") == 0) {
    // benchmarks/cuda_callbacks: the profiler's cost per runtime call with one nested driver call.
    auto bench = reinterpret_cast<void (*)(unsigned long long, double*)>(
        dlsym(fake, "fake_cupti_bench_api_pairs"));
    double ns[3] = {0, 0, 0};
    if (bench != nullptr) bench(std::strtoull(argv[2], nullptr, 10), ns);
    std::printf(
        "FAKE_CUPTI_BENCH {\"empty_ns\": %.2f, \"minimal_ns\": %.2f, \"profiler_ns\": %.2f}\n",
        ns[0], ns[1], ns[2]);
    return 0;
  }
  if (argc > 2 && std::strcmp(argv[1], "kernels") == 0) {
    // benchmarks/cuda_callbacks: the tool's cost per kernel record (N launches, one flush).
    launch(kernel, std::atoi(argv[2]));
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "ranges") == 0) {
    play_ranges(launch, copy);  // everything reaches the profiler at the exit flush
    return 0;
  }
  copy(4096);
  launch(kernel, 5);
  // As CUPTI's periodic flush does during a longer run: records reach the profiler before exit.
  if (std::getenv("FAKE_CUDA_APP_NO_FLUSH") == nullptr) {
    auto flush = reinterpret_cast<int (*)(unsigned)>(dlsym(fake, "cuptiActivityFlushAll"));
    if (flush != nullptr) flush(0);
  }
  std::printf("FAKE_CUDA_APP_SUMMARY {\"kernels\": 5, \"h2d_bytes\": 4096}\n");
  if (auto calls = reinterpret_cast<int (*)()>(
          driver != nullptr ? dlsym(driver, "fake_cuda_driver_calls_while_initialising") : nullptr))
    std::printf("FAKE_CUDA_DRIVER_CALLS_IN_INJECTION %d\n", calls());
  return 0;
}
