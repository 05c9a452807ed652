// Plays a CUDA application on a machine without a GPU: loads the fake libcupti ($CUPTI_LIB),
// calls the plugin's InitializeInjection as the CUDA driver would at cuInit
// ($CUDA_INJECTION64_PATH, set by rocprofv3), then makes 5 kernel launches and one 4 KiB
// host-to-device copy through the fake CUPTI. Prints FAKE_CUDA_APP_SUMMARY {json}.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

int main() {
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
  auto launch = reinterpret_cast<void (*)(const char*, int)>(dlsym(fake, "fake_cupti_launch"));
  auto copy = reinterpret_cast<void (*)(unsigned long long)>(dlsym(fake, "fake_cupti_memcpy_h2d"));
  if (init == nullptr || launch == nullptr || copy == nullptr) return 2;
  init();
  copy(4096);
  launch("_Z11fake_kernelPf", 5);
  // As CUPTI's periodic flush does during a longer run: records reach the profiler before exit.
  if (std::getenv("FAKE_CUDA_APP_NO_FLUSH") == nullptr) {
    auto flush = reinterpret_cast<int (*)(unsigned)>(dlsym(fake, "cuptiActivityFlushAll"));
    if (flush != nullptr) flush(0);
  }
  std::printf("FAKE_CUDA_APP_SUMMARY {\"kernels\": 5, \"h2d_bytes\": 4096}\n");
  return 0;
}
