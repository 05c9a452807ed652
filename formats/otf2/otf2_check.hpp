// The one checked-call macro for OTF2. Used inside functions that return bool: on failure it
// records the expression, file:line and OTF2's own error name and description in `error_sink`
// (a std::string) and returns false, so a failed archive is reported once by finish() and never
// takes the profiled process down.
#pragma once

#include <otf2/OTF2_ErrorCodes.h>

#include <string>

namespace rocprof::trace::otf2 {

inline std::string describe_failure(const char* expression, const char* file, int line,
                                    OTF2_ErrorCode code) {
  return std::string(expression) + " failed at " + file + ":" + std::to_string(line) + ": " +
         OTF2_Error_GetName(code) + " (" + OTF2_Error_GetDescription(code) + ")";
}

}  // namespace rocprof::trace::otf2

#define ROCPROF_OTF2_CHECK(error_sink, expr)                                                       \
  do {                                                                                             \
    const OTF2_ErrorCode rocprof_otf2_code_ = (expr);                                              \
    if (rocprof_otf2_code_ != OTF2_SUCCESS) {                                                      \
      (error_sink) =                                                                               \
          ::rocprof::trace::otf2::describe_failure(#expr, __FILE__, __LINE__, rocprof_otf2_code_); \
      return false;                                                                                \
    }                                                                                              \
  } while (0)
