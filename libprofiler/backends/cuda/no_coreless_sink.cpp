// The installed plugin traces only for a profiler core (coreless_sink.hpp).
#include "coreless_sink.hpp"

namespace rocprof::cuda {

std::unique_ptr<coreless_sink> make_coreless_sink(std::string& why_not) {
  why_not = "no profiler core in this process";
  return nullptr;
}

}  // namespace rocprof::cuda
