// The thin, replaceable wrapper over the target side of per-kernel counters: CUPTI's profiler
// initialisation, chip name and counter availability, the range profiler
// (cupti_range_profiler.h), and the few CUDA driver calls that describe a graph's kernel nodes.
// Counter collection talks to the GPU only through this interface, so the range-to-dispatch
// logic is unit-tested with a synthetic implementation (the pattern of cupti_api.hpp). The
// host side (config images, evaluation) stays in metrics/profiler_host_api.hpp.
#pragma once

#include <cuda.h>
#include <cupti.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda_events.hpp"
#include "cupti_loader.hpp"

namespace rocprof::cuda {

// One kernel node of a graph, as the dispatch callback needs it, or a device-to-device copy
// node (`copy`): the driver runs it as a copy kernel, which takes a range of its own under the
// range profiler (the H100: 3 ranges for kernel, copy, kernel) and is nobody's dispatch.
struct graph_kernel_node {
  CUfunction function = nullptr;
  std::string name;  // mangled, as kernel records name it
  uint32_t grid[3] = {0, 0, 0};
  uint32_t block[3] = {0, 0, 0};
  uint32_t dynamic_shared_memory = 0;
  bool copy = false;
};

// The nodes of a graph that take ranges, in an order that respects its dependencies.
// `one_order`: every node of the graph waits for the one before it (a chain), so the launch runs
// them in this order and range i of the launch is nodes[i]. Otherwise the order among parallel
// branches is the driver's, and only the launch's activity records can tell ranges apart.
struct graph_shape {
  std::vector<graph_kernel_node> nodes;
  bool one_order = false;
};

class range_profiler_api {
 public:
  virtual ~range_profiler_api() = default;
  virtual const char* result_string(CUptiResult r) = 0;
  // cuptiProfilerInitialize (once per process is enough; later calls are harmless).
  virtual CUptiResult initialize() = 0;
  virtual CUptiResult chip_name(size_t device_index, std::string& chip) = 0;
  virtual CUptiResult counter_availability(CUcontext ctx, std::vector<uint8_t>& image) = 0;
  virtual CUptiResult enable(CUcontext ctx, CUpti_RangeProfiler_Object** object) = 0;
  virtual CUptiResult disable(CUpti_RangeProfiler_Object* object) = 0;
  virtual CUptiResult set_config(CUpti_RangeProfiler_SetConfig_Params* params) = 0;
  virtual CUptiResult start(CUpti_RangeProfiler_Object* object) = 0;
  virtual CUptiResult stop(CUpti_RangeProfiler_Object* object, bool& all_passes_submitted) = 0;
  virtual CUptiResult decode(CUpti_RangeProfiler_Object* object, size_t& dropped_ranges) = 0;
  virtual CUptiResult counter_data_size(CUpti_RangeProfiler_Object* object,
                                        const std::vector<const char*>& metrics, size_t max_ranges,
                                        size_t& size) = 0;
  virtual CUptiResult counter_data_initialize(CUpti_RangeProfiler_Object* object,
                                              std::vector<uint8_t>& image) = 0;
  virtual CUptiResult counter_data_ranges(const std::vector<uint8_t>& image, size_t& ranges) = 0;
  // The kernel and device-to-device copy nodes of a graph; false when the driver cannot say.
  virtual bool graph_kernel_nodes(CUgraph graph, graph_shape& shape) = 0;
  // The mangled name of a kernel function (cuFuncGetName); "" when unknown.
  virtual std::string function_name(CUfunction function) = 0;
  // The function's registers, static shared memory and local memory; false when the driver
  // cannot say (the symbol is then reported without them).
  virtual bool resources_of(CUfunction /*function*/, function_resources& /*out*/) { return false; }
  // Whether `stream` is being captured into a graph (cuStreamIsCapturing): a launch there runs
  // nothing yet, and starting the range profiler inside a capture breaks the capture.
  virtual bool stream_capturing(CUstream /*stream*/) { return false; }
  // Makes `ctx` current on the calling thread (cuCtxPushCurrent), for a batch collected outside
  // its launches (at exit, at context destruction); false when the driver refused (the context
  // is gone: its profiler must not be touched). pop_context() undoes a successful push.
  virtual bool push_context(CUcontext /*ctx*/) { return true; }
  virtual void pop_context() {}
};

// The production implementation over the loaded libcupti and libcuda.so.1. nullptr (with
// `why`) when an entry point is missing (a CUPTI older than the range profiler API).
std::unique_ptr<range_profiler_api> open_range_profiler(const cupti_library& lib, std::string& why);

}  // namespace rocprof::cuda
