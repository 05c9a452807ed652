// The floor for the launch benchmark: the least a CUPTI activity tracer can do, injected with
// CUDA_INJECTION64_PATH. BARE_CUPTI_MODE=kernel enables CONCURRENT_KERNEL only (what
// --kernel-trace needs); BARE_CUPTI_MODE=sys adds memcpy, memset, MEMORY2 and a callback on
// every runtime and driver API call that reads the clock twice (what --sys-trace needs);
// BARE_CUPTI_MODE=records takes the API calls from RUNTIME and DRIVER activity records instead of
// callbacks (what --sys-trace --cuda-api-records needs); BARE_CUPTI_SYSTEM_TIDS=1 asks CUPTI for
// system thread ids (gettid) in those records, as the plugin does; BARE_CUPTI_TORCH_SET=1 keeps
// only the API records torch.profiler's trace of the PyTorch loop holds (cudaLaunchKernel and
// cudaDeviceSynchronize; no driver calls). Records are counted, not kept. Written for this
// benchmark only; not part of the product.
#include <cupti.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace {

std::atomic<unsigned long long> g_records{0}, g_callbacks{0};
CUpti_SubscriberHandle g_subscriber = nullptr;

#define BARE_CHECK(expr)                                                                    \
  do {                                                                                      \
    CUptiResult r_ = (expr);                                                                \
    if (r_ != CUPTI_SUCCESS) {                                                              \
      const char* s_ = nullptr;                                                             \
      cuptiGetResultString(r_, &s_);                                                        \
      std::fprintf(stderr, "bare_cupti: %s failed: %s\n", #expr, s_ != nullptr ? s_ : "?"); \
    }                                                                                       \
  } while (0)

uint64_t CUPTIAPI boottime() {
  timespec ts{};
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

void CUPTIAPI requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = size_t{8} << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  unsigned long long n = 0;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
    ++n;
  g_records += n;
  std::free(buffer);
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void* data) {
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  if (cb->callbackSite == CUPTI_API_ENTER) {
    *cb->correlationData = boottime();
  } else {
    volatile uint64_t duration = boottime() - *cb->correlationData;
    (void)duration;
    ++g_callbacks;
  }
}

void at_exit() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::fprintf(stderr, "bare_cupti: %llu records, %llu API callbacks\n", g_records.load(),
               g_callbacks.load());
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  const char* mode = std::getenv("BARE_CUPTI_MODE");
  const bool sys = mode != nullptr && std::strcmp(mode, "sys") == 0;
  const bool records = mode != nullptr && std::strcmp(mode, "records") == 0;
  BARE_CHECK(cuptiActivityRegisterTimestampCallback(&boottime));
  BARE_CHECK(cuptiActivityRegisterCallbacks(&requested, &completed));
  BARE_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  if (sys || records) {
    BARE_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY));
    BARE_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET));
    BARE_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMORY2));
  }
  const char* system_tids = std::getenv("BARE_CUPTI_SYSTEM_TIDS");
  if (system_tids != nullptr && std::strcmp(system_tids, "1") == 0)
    BARE_CHECK(cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM));
  if (records) {
    BARE_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME));
    BARE_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER));
    const char* torch_set = std::getenv("BARE_CUPTI_TORCH_SET");
    if (torch_set != nullptr && std::strcmp(torch_set, "1") == 0) {
      BARE_CHECK(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_DRIVER));
      for (CUpti_CallbackId cbid = 1; cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE; ++cbid)
        cuptiActivityEnableRuntimeApi(cbid, 0);  // some ids are holes: failures are expected
      BARE_CHECK(cuptiActivityEnableRuntimeApi(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1));
      BARE_CHECK(
          cuptiActivityEnableRuntimeApi(CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, 1));
    }
  }
  if (sys) {
    BARE_CHECK(cuptiSubscribe(&g_subscriber, &on_callback, nullptr));
    BARE_CHECK(cuptiEnableDomain(1, g_subscriber, CUPTI_CB_DOMAIN_RUNTIME_API));
    BARE_CHECK(cuptiEnableDomain(1, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API));
  }
  std::atexit(&at_exit);
  return 1;
}
