// make_coreless_sink of the test plugin variant: the JSON sink when
// ROCPROF_CUDA_STANDALONE_OUTPUT names a file.
#include <utility>

#include "standalone_sink.hpp"

namespace rocprof::cuda {

std::unique_ptr<coreless_sink> make_coreless_sink(std::string& why_not) {
  standalone_options options = standalone_options_from_env();
  if (options.output_path.empty()) {
    why_not = "no profiler core in this process and ROCPROF_CUDA_STANDALONE_OUTPUT unset";
    return nullptr;
  }
  return std::make_unique<standalone_sink>(std::move(options));
}

}  // namespace rocprof::cuda
