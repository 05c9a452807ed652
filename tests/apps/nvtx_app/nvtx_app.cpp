// NVTX v3 sample (header-only NVTX; the profiler injects through NVTX_INJECTION64_PATH).
// Usage: nvtx_app <iterations>
// Records, with N = iterations (the end-to-end tests count exactly these):
//   thread ranges  "outer" x N, "inner" x N (nested in "outer"), "ex-push" x 1 (Ex, ASCII),
//                  "registered-range" x 1 (domain "nvtx_app_domain", registered string)
//   marks          "mark-a", "ex-mark", "domain-mark" (domain) x 1 each
//   process ranges "process-range" (started on main, ended on thread "nvtx-worker"),
//                  "domain-range" (domain, Ex)
//   thread names   main thread "nvtx-main", worker "nvtx-worker"
#include <nvtx3/nvToolsExt.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

uint32_t current_tid() {
  return static_cast<uint32_t>(::syscall(SYS_gettid));
}

nvtxEventAttributes_t ascii_attributes(const char* message) {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = message;
  return attributes;
}

}  // namespace

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 10;
  nvtxNameOsThreadA(current_tid(), "nvtx-main");

  nvtxDomainHandle_t domain = nvtxDomainCreateA("nvtx_app_domain");
  nvtxStringHandle_t registered = nvtxDomainRegisterStringA(domain, "registered-range");

  for (int i = 0; i < iterations; ++i) {
    nvtxRangePushA("outer");
    nvtxRangePushA("inner");
    nvtxRangePop();
    nvtxRangePop();
  }
  nvtxMarkA("mark-a");

  nvtxEventAttributes_t push = ascii_attributes("ex-push");
  nvtxRangePushEx(&push);
  nvtxRangePop();
  nvtxEventAttributes_t mark = ascii_attributes("ex-mark");
  nvtxMarkEx(&mark);

  nvtxEventAttributes_t with_registered{};
  with_registered.version = NVTX_VERSION;
  with_registered.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  with_registered.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  with_registered.message.registered = registered;
  nvtxDomainRangePushEx(domain, &with_registered);
  nvtxDomainRangePop(domain);
  nvtxEventAttributes_t domain_mark = ascii_attributes("domain-mark");
  nvtxDomainMarkEx(domain, &domain_mark);
  nvtxEventAttributes_t domain_range = ascii_attributes("domain-range");
  nvtxRangeId_t domain_range_id = nvtxDomainRangeStartEx(domain, &domain_range);
  nvtxDomainRangeEnd(domain, domain_range_id);

  // A process range that ends on another thread.
  nvtxRangeId_t process_range = nvtxRangeStartA("process-range");
  std::thread worker([process_range] {
    nvtxNameOsThreadA(current_tid(), "nvtx-worker");
    nvtxRangeEnd(process_range);
  });
  worker.join();

  nvtxDomainDestroy(domain);
  std::printf("nvtx_app: %d iterations done\n", iterations);
  return 0;
}
