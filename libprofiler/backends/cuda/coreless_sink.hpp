// Where the plugin's records go when the CUDA driver injects it (CUDA_INJECTION64_PATH) into a
// process without a profiler core. The installed plugin has no such sink
// (no_coreless_sink.cpp): it says so once and traces nothing. Test builds link one that
// writes a JSON file instead (tests/support/cuda_standalone), so that the backend can be
// checked on a GPU machine on its own and compared with a bare CUPTI collector.
#pragma once

#include <memory>
#include <string>

#include "backend_sink.hpp"

namespace rocprof::cuda {

class coreless_sink : public backend_sink {
 public:
  /// Once, at exit, after the final flush; `status` says how tracing went.
  virtual void finish(const std::string& status) = 0;
};

/// The sink for this process, or nullptr with `why_not` saying why tracing stays off.
std::unique_ptr<coreless_sink> make_coreless_sink(std::string& why_not);

}  // namespace rocprof::cuda
