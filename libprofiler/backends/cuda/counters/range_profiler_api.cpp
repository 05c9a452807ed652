#include "counters/range_profiler_api.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <map>

#include "cupti_dl_helpers.hpp"

namespace rocprof::cuda {
namespace {

#define ROCPROF_RANGE_PROFILER_FUNCTIONS(X)       \
  X(cuptiGetResultString)                         \
  X(cuptiProfilerInitialize)                      \
  X(cuptiDeviceGetChipName)                       \
  X(cuptiProfilerGetCounterAvailability)          \
  X(cuptiRangeProfilerEnable)                     \
  X(cuptiRangeProfilerDisable)                    \
  X(cuptiRangeProfilerSetConfig)                  \
  X(cuptiRangeProfilerStart)                      \
  X(cuptiRangeProfilerStop)                       \
  X(cuptiRangeProfilerDecodeData)                 \
  X(cuptiRangeProfilerGetCounterDataSize)         \
  X(cuptiRangeProfilerCounterDataImageInitialize) \
  X(cuptiRangeProfilerGetCounterDataInfo)

struct cupti_target_table {
#define ROCPROF_MEMBER(name) decltype(&::name) name = nullptr;
  ROCPROF_RANGE_PROFILER_FUNCTIONS(ROCPROF_MEMBER)
#undef ROCPROF_MEMBER
};

// Driver entry points, by their exported names (cuda.h maps some to _v2 by macro).
struct driver_graph_table {
  decltype(&::cuGraphGetNodes) get_nodes = nullptr;
  decltype(&::cuGraphNodeGetType) node_type = nullptr;
  decltype(&::cuGraphKernelNodeGetParams) kernel_params = nullptr;
  decltype(&::cuGraphNodeGetDependencies) dependencies = nullptr;
  decltype(&::cuGraphMemcpyNodeGetParams) memcpy_params = nullptr;
  decltype(&::cuFuncGetName) func_name = nullptr;
  decltype(&::cuKernelGetName) kernel_name = nullptr;
  decltype(&::cuStreamIsCapturing) is_capturing = nullptr;
  decltype(&::cuFuncGetAttribute) func_attribute = nullptr;
  decltype(&::cuCtxPushCurrent) push_current = nullptr;
  decltype(&::cuCtxPopCurrent) pop_current = nullptr;
};

class range_profiler_dl_api final
    : public cupti_profiler_basics<range_profiler_api, cupti_target_table> {
 public:
  range_profiler_dl_api(cupti_target_table t, driver_graph_table d)
      : cupti_profiler_basics{t}, d_{d} {}

  CUptiResult counter_availability(CUcontext ctx, std::vector<uint8_t>& image) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    p.ctx = ctx;
    return cupti_counter_availability(t_.cuptiProfilerGetCounterAvailability, p, image);
  }
  CUptiResult enable(CUcontext ctx, CUpti_RangeProfiler_Object** object) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    p.ctx = ctx;
    const CUptiResult r = t_.cuptiRangeProfilerEnable(&p);
    *object = p.pRangeProfilerObject;
    return r;
  }
  CUptiResult disable(CUpti_RangeProfiler_Object* object) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
    p.pRangeProfilerObject = object;
    return t_.cuptiRangeProfilerDisable(&p);
  }
  CUptiResult set_config(CUpti_RangeProfiler_SetConfig_Params* p) override {
    return t_.cuptiRangeProfilerSetConfig(p);
  }
  CUptiResult start(CUpti_RangeProfiler_Object* object) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
    p.pRangeProfilerObject = object;
    return t_.cuptiRangeProfilerStart(&p);
  }
  CUptiResult stop(CUpti_RangeProfiler_Object* object, bool& all_passes_submitted) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
    p.pRangeProfilerObject = object;
    const CUptiResult r = t_.cuptiRangeProfilerStop(&p);
    all_passes_submitted = p.isAllPassSubmitted != 0;
    return r;
  }
  CUptiResult decode(CUpti_RangeProfiler_Object* object, size_t& dropped_ranges) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    p.pRangeProfilerObject = object;
    const CUptiResult r = t_.cuptiRangeProfilerDecodeData(&p);
    dropped_ranges = p.numOfRangeDropped;
    return r;
  }
  CUptiResult counter_data_size(CUpti_RangeProfiler_Object* object,
                                const std::vector<const char*>& metrics, size_t max_ranges,
                                size_t& size) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    p.pRangeProfilerObject = object;
    // CUPTI only reads the names; its parameter is not const-qualified.
    p.pMetricNames = const_cast<const char**>(metrics.data());
    p.numMetrics = metrics.size();
    p.maxNumOfRanges = max_ranges;
    p.maxNumRangeTreeNodes = static_cast<uint32_t>(max_ranges);
    const CUptiResult r = t_.cuptiRangeProfilerGetCounterDataSize(&p);
    size = p.counterDataSize;
    return r;
  }
  CUptiResult counter_data_initialize(CUpti_RangeProfiler_Object* object,
                                      std::vector<uint8_t>& image) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    p.pRangeProfilerObject = object;
    p.counterDataSize = image.size();
    p.pCounterData = image.data();
    return t_.cuptiRangeProfilerCounterDataImageInitialize(&p);
  }
  CUptiResult counter_data_ranges(const std::vector<uint8_t>& image, size_t& ranges) override {
    auto p = ROCPROF_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    p.pCounterDataImage = image.data();
    p.counterDataImageSize = image.size();
    const CUptiResult r = t_.cuptiRangeProfilerGetCounterDataInfo(&p);
    ranges = p.numTotalRanges;
    return r;
  }

  bool graph_kernel_nodes(CUgraph graph, graph_shape& out) override;
  std::string function_name(CUfunction function) override {
    const char* name = nullptr;
    if (d_.func_name == nullptr || function == nullptr ||
        d_.func_name(&name, function) != CUDA_SUCCESS || name == nullptr)
      return {};
    return name;
  }
  bool resources_of(CUfunction function, function_resources& out) override {
    if (d_.func_attribute == nullptr || function == nullptr) return false;
    int registers = 0, shared = 0, local = 0;
    if (d_.func_attribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function) != CUDA_SUCCESS ||
        d_.func_attribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function) != CUDA_SUCCESS ||
        d_.func_attribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, function) != CUDA_SUCCESS)
      return false;
    out.registers_per_thread = static_cast<uint32_t>(registers);
    out.static_shared_memory = static_cast<uint32_t>(shared);
    out.local_memory_per_thread = static_cast<uint32_t>(local);
    return true;
  }
  bool stream_capturing(CUstream stream) override {
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    return d_.is_capturing != nullptr && d_.is_capturing(stream, &status) == CUDA_SUCCESS &&
           status != CU_STREAM_CAPTURE_STATUS_NONE;
  }
  bool push_context(CUcontext ctx) override {
    return d_.push_current != nullptr && d_.pop_current != nullptr &&
           d_.push_current(ctx) == CUDA_SUCCESS;
  }
  void pop_context() override {
    CUcontext popped = nullptr;
    if (d_.pop_current != nullptr) d_.pop_current(&popped);
  }

 private:
  driver_graph_table d_;
};

bool range_profiler_dl_api::graph_kernel_nodes(CUgraph graph, graph_shape& out) {
  out = graph_shape{};
  out.one_order = true;
  if (d_.get_nodes == nullptr || d_.node_type == nullptr || d_.kernel_params == nullptr ||
      d_.dependencies == nullptr)
    return false;
  size_t count = 0;
  if (d_.get_nodes(graph, nullptr, &count) != CUDA_SUCCESS) return false;
  std::vector<CUgraphNode> nodes(count);
  if (count > 0 && d_.get_nodes(graph, nodes.data(), &count) != CUDA_SUCCESS) return false;
  // Kahn's order over the dependencies, stable in the driver's node order, so a chain comes
  // out in execution order.
  std::map<CUgraphNode, size_t> index;
  for (size_t i = 0; i < nodes.size(); ++i)
    index[nodes[i]] = i;
  std::vector<std::vector<size_t>> deps(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    size_t n = 0;
    if (d_.dependencies(nodes[i], nullptr, nullptr, &n) != CUDA_SUCCESS) return false;
    std::vector<CUgraphNode> from(n);
    if (n > 0 && d_.dependencies(nodes[i], from.data(), nullptr, &n) != CUDA_SUCCESS) return false;
    for (CUgraphNode f : from)
      if (index.count(f) != 0) deps[i].push_back(index[f]);
  }
  std::vector<bool> done(nodes.size(), false);
  for (size_t placed = 0; placed < nodes.size(); ++placed) {
    size_t next = nodes.size(), ready = 0;
    for (size_t i = 0; i < nodes.size(); ++i)
      if (!done[i] &&
          std::all_of(deps[i].begin(), deps[i].end(), [&](size_t d) { return done[d]; })) {
        if (next == nodes.size()) next = i;
        ++ready;
      }
    if (next == nodes.size()) return false;  // a cycle: not a valid graph
    if (ready > 1) out.one_order = false;    // parallel branches
    done[next] = true;
    CUgraphNodeType type{};
    if (d_.node_type(nodes[next], &type) != CUDA_SUCCESS) continue;
    if (type == CU_GRAPH_NODE_TYPE_MEMCPY) {
      CUDA_MEMCPY3D copy{};
      if (d_.memcpy_params != nullptr && d_.memcpy_params(nodes[next], &copy) == CUDA_SUCCESS &&
          copy.srcMemoryType == CU_MEMORYTYPE_DEVICE &&
          copy.dstMemoryType == CU_MEMORYTYPE_DEVICE) {
        graph_kernel_node c;
        c.copy = true;
        out.nodes.push_back(std::move(c));
      }
      continue;
    }
    if (type != CU_GRAPH_NODE_TYPE_KERNEL) continue;
    CUDA_KERNEL_NODE_PARAMS p{};
    if (d_.kernel_params(nodes[next], &p) != CUDA_SUCCESS) continue;
    graph_kernel_node k;
    k.function = p.func;
    k.name = function_name(p.func);
    const char* kernel = nullptr;
    if (k.name.empty() && p.kern != nullptr && d_.kernel_name != nullptr &&
        d_.kernel_name(&kernel, p.kern) == CUDA_SUCCESS && kernel != nullptr)
      k.name = kernel;
    k.grid[0] = p.gridDimX;
    k.grid[1] = p.gridDimY;
    k.grid[2] = p.gridDimZ;
    k.block[0] = p.blockDimX;
    k.block[1] = p.blockDimY;
    k.block[2] = p.blockDimZ;
    k.dynamic_shared_memory = p.sharedMemBytes;
    out.nodes.push_back(std::move(k));
  }
  return true;
}

}  // namespace

std::unique_ptr<range_profiler_api> open_range_profiler(const cupti_library& lib,
                                                        std::string& why) {
  if (lib.handle == nullptr) {
    why = "libcupti is not loaded";
    return nullptr;
  }
  cupti_target_table t;
  ROCPROF_RANGE_PROFILER_FUNCTIONS(ROCPROF_RESOLVE_CUPTI)
  driver_graph_table d;
  // The application loaded the driver already (counters are collected inside its launches).
  if (void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) {
    resolve_symbol(cuda, "cuGraphGetNodes", d.get_nodes);
    resolve_symbol(cuda, "cuGraphNodeGetType", d.node_type);
    resolve_symbol(cuda, "cuGraphKernelNodeGetParams_v2", d.kernel_params);
    resolve_symbol(cuda, "cuGraphNodeGetDependencies_v2", d.dependencies);
    resolve_symbol(cuda, "cuGraphMemcpyNodeGetParams", d.memcpy_params);
    resolve_symbol(cuda, "cuFuncGetName", d.func_name);
    resolve_symbol(cuda, "cuKernelGetName", d.kernel_name);
    resolve_symbol(cuda, "cuStreamIsCapturing", d.is_capturing);
    resolve_symbol(cuda, "cuFuncGetAttribute", d.func_attribute);
    resolve_symbol(cuda, "cuCtxPushCurrent_v2", d.push_current);
    resolve_symbol(cuda, "cuCtxPopCurrent_v2", d.pop_current);
  }
  return std::make_unique<range_profiler_dl_api>(t, d);
}

}  // namespace rocprof::cuda
