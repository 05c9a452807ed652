#include "cupti_check.hpp"

#include <cstdio>

namespace rocprof::cuda {

bool report_cupti_result(cupti_api& api, CUptiResult r, const char* expr, const char* file,
                         int line) {
  return r == CUPTI_SUCCESS || report_cupti_failure(api.result_string(r), r, expr, file, line);
}

bool report_cupti_failure(const char* error_text, CUptiResult r, const char* expr, const char* file,
                          int line) {
  if (r == CUPTI_SUCCESS) return true;
  std::fprintf(stderr, "rocprofv3 [cuda]: %s failed at %s:%d: %s (%d)\n", expr, file, line,
               error_text, static_cast<int>(r));
  return false;
}

}  // namespace rocprof::cuda
