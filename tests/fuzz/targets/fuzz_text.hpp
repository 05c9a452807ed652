// Shared by the fuzz targets: the input as text, and the check that a parser failed only the
// way it promises to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace rocprof::fuzz {

inline std::string text_of(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A broken promise: libFuzzer reports the abort with the input that caused it.
[[noreturn]] inline void broken(const char* what) {
  (void)what;  // visible in the debugger / stack trace of the abort
  __builtin_trap();
}

}  // namespace rocprof::fuzz
