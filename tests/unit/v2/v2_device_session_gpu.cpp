// GPU check (ctest label gpu): a v2 device profiling session polled around a known kernel.
// The kernel spins ~0.5 s on every SM's first warp; the counter (ROCPROF_V2_GPU_COUNTER, else
// SQ_WAVES, the name the device counting service maps to NVIDIA's) must read higher while or
// after it runs than before. The CUDA driver is loaded at run time, so the test builds
// without CUDA; with no driver or no GPU it exits 77 (ctest: skipped).
#include <dlfcn.h>
#include <rocprofiler/v2/rocprofiler.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

using cu_result = int;
using cu_fn_init = cu_result (*)(unsigned);
using cu_fn_device_get = cu_result (*)(int*, int);
using cu_fn_retain = cu_result (*)(void**, int);
using cu_fn_set_current = cu_result (*)(void*);
using cu_fn_module_load = cu_result (*)(void**, const void*);
using cu_fn_get_function = cu_result (*)(void**, void*, const char*);
using cu_fn_launch = cu_result (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned,
                                   unsigned, unsigned, void*, void**, void**);
using cu_fn_sync = cu_result (*)();

// Spins until clock64 passed start + cycles.
const char* const k_spin_ptx = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry spin(.param .u64 cycles)
{
  .reg .u64 %rd<4>;
  .reg .pred %p;
  ld.param.u64 %rd1, [cycles];
  mov.u64 %rd2, %clock64;
  add.u64 %rd3, %rd2, %rd1;
LOOP:
  mov.u64 %rd2, %clock64;
  setp.lt.u64 %p, %rd2, %rd3;
  @%p bra LOOP;
  ret;
}
)";

double poll_value(rocprofiler_session_id_t session) {
  rocprofiler_device_profile_metric_t metric{};
  const rocprofiler_status_t status = rocprofiler_device_profiling_session_poll(session, &metric);
  if (status != ROCPROFILER_STATUS_SUCCESS) {
    std::printf("poll: %s\n", rocprofiler_error_str(status));
    std::exit(1);
  }
  std::printf("%s = %g\n", metric.metric_name, metric.value.value);
  return metric.value.value;
}

}  // namespace

int main() {
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW);
  if (cuda == nullptr) {
    std::printf("SKIP: no CUDA driver (%s)\n", dlerror());
    return 77;
  }
  const auto sym = [&](const char* name) { return dlsym(cuda, name); };
  auto cu_init = reinterpret_cast<cu_fn_init>(sym("cuInit"));
  auto cu_device_get = reinterpret_cast<cu_fn_device_get>(sym("cuDeviceGet"));
  auto cu_retain = reinterpret_cast<cu_fn_retain>(sym("cuDevicePrimaryCtxRetain"));
  auto cu_set_current = reinterpret_cast<cu_fn_set_current>(sym("cuCtxSetCurrent"));
  auto cu_module_load = reinterpret_cast<cu_fn_module_load>(sym("cuModuleLoadData"));
  auto cu_get_function = reinterpret_cast<cu_fn_get_function>(sym("cuModuleGetFunction"));
  auto cu_launch = reinterpret_cast<cu_fn_launch>(sym("cuLaunchKernel"));
  auto cu_sync = reinterpret_cast<cu_fn_sync>(sym("cuCtxSynchronize"));
  int device = 0;
  void* context = nullptr;
  if (cu_init == nullptr || cu_init(0) != 0 || cu_device_get(&device, 0) != 0) {
    std::printf("SKIP: no CUDA device\n");
    return 77;
  }
  void* module = nullptr;
  void* spin = nullptr;
  if (cu_retain(&context, device) != 0 || cu_set_current(context) != 0 ||
      cu_module_load(&module, k_spin_ptx) != 0 || cu_get_function(&spin, module, "spin") != 0) {
    std::printf("FAIL: could not prepare the spin kernel\n");
    return 1;
  }

  if (rocprofiler_initialize() != ROCPROFILER_STATUS_SUCCESS) return 1;
  const char* counter = std::getenv("ROCPROF_V2_GPU_COUNTER");
  const char* counters[] = {counter != nullptr ? counter : "SQ_WAVES"};
  rocprofiler_session_id_t session{};
  const rocprofiler_status_t created =
      rocprofiler_device_profiling_session_create(counters, 1, &session, 0, 0);
  if (created != ROCPROFILER_STATUS_SUCCESS) {
    std::printf("FAIL: rocprofiler_device_profiling_session_create: %s\n",
                rocprofiler_error_str(created));
    return 1;
  }
  if (rocprofiler_device_profiling_session_start(session) != ROCPROFILER_STATUS_SUCCESS) return 1;
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const double idle = poll_value(session);
  unsigned long long cycles = 1000ull * 1000 * 1000;  // ~0.5 s at ~2 GHz
  void* args[] = {&cycles};
  if (cu_launch(spin, 1024, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr) != 0) return 1;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const double busy = poll_value(session);
  cu_sync();
  const double after = poll_value(session);
  rocprofiler_device_profiling_session_stop(session);
  rocprofiler_device_profiling_session_destroy(session);
  rocprofiler_finalize();
  const bool rose = busy > idle || after > idle;
  std::printf("%s: idle=%g busy=%g after=%g\n", rose ? "ok: the counter rose" : "FAIL: no rise",
              idle, busy, after);
  return rose ? 0 : 1;
}
