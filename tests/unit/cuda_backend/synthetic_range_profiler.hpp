// Synthetic target and host sides of per-kernel counters, for tests of what needs a GPU: the
// range profiler records the calls it gets and "measures" a chosen number of ranges per
// Start/Stop; the host side builds trivial config images and evaluates range r of metric m as
// 100 * r + m (so a test can tell which range a value came from).
#pragma once

#include <algorithm>

#include <cstring>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "counters/range_profiler_api.hpp"
#include "synthetic_profiler_host.hpp"

namespace rocprof::cuda::test {

class synthetic_range_profiler final : public range_profiler_api {
 public:
  std::vector<std::string> calls;
  std::deque<size_t> ranges_per_stop;  // each Stop adds the front (default 1)
  size_t total_ranges = 0;             // in the counter data image
  CUptiResult start_result = CUPTI_SUCCESS;
  CUptiResult user_replay_result = CUPTI_SUCCESS;  // what SetConfig says to user replay
  std::map<CUgraph, graph_shape> graphs;

  const char* result_string(CUptiResult) override { return "synthetic"; }
  CUptiResult initialize() override {
    calls.emplace_back("initialize");
    return CUPTI_SUCCESS;
  }
  CUptiResult chip_name(size_t, std::string& chip) override {
    chip = "GH100";
    return CUPTI_SUCCESS;
  }
  CUptiResult counter_availability(CUcontext, std::vector<uint8_t>& image) override {
    calls.emplace_back("availability");
    image.assign(8, 1);
    return CUPTI_SUCCESS;
  }
  CUptiResult enable(CUcontext, CUpti_RangeProfiler_Object** object) override {
    calls.emplace_back("enable");
    *object = reinterpret_cast<CUpti_RangeProfiler_Object*>(++objects);
    return CUPTI_SUCCESS;
  }
  CUptiResult disable(CUpti_RangeProfiler_Object*) override {
    calls.emplace_back("disable");
    return CUPTI_SUCCESS;
  }
  CUptiResult set_config(CUpti_RangeProfiler_SetConfig_Params* p) override {
    calls.emplace_back("set_config");
    if (p->replayMode == CUPTI_UserReplay && user_replay_result != CUPTI_SUCCESS)
      return user_replay_result;
    last_range_mode = p->range;
    last_replay_mode = p->replayMode;
    return CUPTI_SUCCESS;
  }
  CUptiResult start(CUpti_RangeProfiler_Object*) override {
    calls.emplace_back("start");
    return start_result;
  }
  CUptiResult stop(CUpti_RangeProfiler_Object*, bool& all) override {
    calls.emplace_back("stop");
    all = true;
    size_t add = 1;
    if (!ranges_per_stop.empty()) {
      add = ranges_per_stop.front();
      ranges_per_stop.pop_front();
    }
    total_ranges += add;
    return CUPTI_SUCCESS;
  }
  CUptiResult decode(CUpti_RangeProfiler_Object*, size_t& dropped) override {
    calls.emplace_back("decode");
    dropped = 0;
    return CUPTI_SUCCESS;
  }
  CUptiResult counter_data_size(CUpti_RangeProfiler_Object*, const std::vector<const char*>&,
                                size_t, size_t& size) override {
    size = 64;
    return CUPTI_SUCCESS;
  }
  CUptiResult counter_data_initialize(CUpti_RangeProfiler_Object*, std::vector<uint8_t>&) override {
    calls.emplace_back("data_init");
    total_ranges = 0;
    return CUPTI_SUCCESS;
  }
  CUptiResult counter_data_ranges(const std::vector<uint8_t>&, size_t& ranges) override {
    ranges = total_ranges;
    return CUPTI_SUCCESS;
  }
  bool graph_kernel_nodes(CUgraph graph, graph_shape& shape) override {
    const auto it = graphs.find(graph);
    if (it == graphs.end()) return false;
    shape = it->second;
    return true;
  }
  std::string function_name(CUfunction) override { return "_Z6kernelv"; }
  bool stream_capturing(CUstream stream) override {
    return stream != nullptr && stream == capturing;
  }
  CUstream capturing = nullptr;  // the stream a test says is being captured into a graph
  // What cuFuncGetAttribute says of every function; the functions asked, in order.
  bool resources_known = true;
  function_resources resources;
  std::vector<CUfunction> described;
  bool resources_of(CUfunction function, function_resources& out) override {
    described.push_back(function);
    if (resources_known) out = resources;
    return resources_known;
  }

  size_t count(const std::string& call) const {
    size_t n = 0;
    for (const std::string& c : calls)
      n += c == call ? 1 : 0;
    return n;
  }

  uintptr_t objects = 0;
  CUpti_ProfilerRange last_range_mode{};
  CUpti_ProfilerReplayMode last_replay_mode{};
};

class synthetic_counting_host final : public stub_profiler_host {
 public:
  size_t passes = 1;
  std::string costs_a_pass;  // a metric that adds a pass to any config it is in
  std::vector<std::vector<std::string>> configured;  // metric lists of built configs

  CUptiResult config_add_metrics(CUpti_Profiler_Host_ConfigAddMetrics_Params* p) override {
    configured.emplace_back(p->ppMetricNames, p->ppMetricNames + p->numMetrics);
    return CUPTI_SUCCESS;
  }
  CUptiResult config_image_size(CUpti_Profiler_Host_GetConfigImageSize_Params* p) override {
    p->configImageSize = 16;
    return CUPTI_SUCCESS;
  }
  CUptiResult config_image(CUpti_Profiler_Host_GetConfigImage_Params* p) override {
    std::memset(p->pConfigImage, 7, p->configImageSize);
    return CUPTI_SUCCESS;
  }
  CUptiResult num_passes(CUpti_Profiler_Host_GetNumOfPasses_Params* p) override {
    const std::vector<std::string>& last = configured.back();
    const bool costly = std::find(last.begin(), last.end(), costs_a_pass) != last.end();
    p->numOfPasses = passes + (costly ? 1 : 0);
    return CUPTI_SUCCESS;
  }
  CUptiResult evaluate(CUpti_Profiler_Host_EvaluateToGpuValues_Params* p) override {
    for (size_t m = 0; m < p->numMetrics; ++m)
      p->pMetricValues[m] = 100.0 * static_cast<double>(p->rangeIndex) + static_cast<double>(m);
    return CUPTI_SUCCESS;
  }
};

}  // namespace rocprof::cuda::test
