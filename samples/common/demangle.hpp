// Kernel names for display: the SDK reports a kernel's symbol as the code object defines it
// (mangled, e.g. _Z4fillIfEvPT_S0_i); the sample tools print it as a reader would write it
// (fill<float>(float*, float, int)). Names that are not mangled C++ come back unchanged.
#pragma once

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace sample {

inline std::string demangled(const char* name) {
  if (name == nullptr) return "";
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> text{
      abi::__cxa_demangle(name, nullptr, nullptr, &status), &std::free};
  return status == 0 && text != nullptr ? std::string(text.get()) : std::string(name);
}

}  // namespace sample
