// User regexes: the pre-check and RE2 either refuse a pattern with a reason or compile it, and
// a compiled pattern matches a fixed text (both ways) in linear time.
#include "fuzz_text.hpp"
#include "rocprof/common/safe_regex.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string error;
  const auto re =
      rocprof::common::safe_regex::compile(rocprof::fuzz::text_of(data, size), &error);
  if (!re) {
    if (error.empty()) rocprof::fuzz::broken("a refusal without a reason");
    return 0;
  }
  static const std::string text =
      "void gemm_kernel<float, 128>(float const*, float*, int) KERNEL_DISPATCH HIP_API " +
      std::string(4096, 'a') + "!";
  (void)re->search(text);
  (void)re->full_match(text);
  return 0;
}
