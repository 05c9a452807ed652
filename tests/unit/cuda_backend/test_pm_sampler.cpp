// The PM sampler's decode loop on a synthetic PM sampling target and host API (no GPU): the
// refusals (interval, passes with the culprits named), sample 0 dropped, spans moved to the
// core's clock, lost samples counted in the index, a full counter data image re-initialised,
// the final decode at stop.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "pm_sampling/pm_sampler.hpp"
#include "synthetic_profiler_host.hpp"

namespace rocprof::cuda {
namespace {

// Passes: one for up to two metrics, two beyond; "multi.pass" needs three even alone.
class pm_host final : public test::stub_profiler_host {
 public:
  std::vector<std::string> last;
  CUptiResult config_add_metrics(CUpti_Profiler_Host_ConfigAddMetrics_Params* p) override {
    last.assign(p->ppMetricNames, p->ppMetricNames + p->numMetrics);
    return CUPTI_SUCCESS;
  }
  CUptiResult config_image_size(CUpti_Profiler_Host_GetConfigImageSize_Params* p) override {
    p->configImageSize = 8;
    return CUPTI_SUCCESS;
  }
  CUptiResult config_image(CUpti_Profiler_Host_GetConfigImage_Params* p) override {
    std::memset(p->pConfigImage, 1, p->configImageSize);
    return CUPTI_SUCCESS;
  }
  CUptiResult num_passes(CUpti_Profiler_Host_GetNumOfPasses_Params* p) override {
    p->numOfPasses = last.size() > 2 ? 2 : 1;
    for (const std::string& m : last)
      if (m == "multi.pass") p->numOfPasses = 3;
    return CUPTI_SUCCESS;
  }
  CUptiResult evaluate(CUpti_Profiler_Host_EvaluateToGpuValues_Params* p) override {
    for (size_t m = 0; m < p->numMetrics; ++m)
      p->pMetricValues[m] = 10.0 * static_cast<double>(p->rangeIndex) + static_cast<double>(m);
    return CUPTI_SUCCESS;
  }
};

// The hardware: spans the test queues, moved into the image by decode (at most `capacity`).
class pm_target final : public pm_sampling_api {
 public:
  std::deque<std::pair<uint64_t, uint64_t>> pending;  // spans not decoded yet
  std::vector<std::pair<uint64_t, uint64_t>> image;   // spans of the current image
  size_t capacity = 100;
  std::vector<std::string> calls;
  uint64_t now = 5000;

  const char* result_string(CUptiResult) override { return "CUPTI_ERROR_SYNTHETIC"; }
  CUptiResult initialize() override { return CUPTI_SUCCESS; }
  CUptiResult chip_name(size_t, std::string& chip) override {
    chip = "GH100";
    return CUPTI_SUCCESS;
  }
  // As the device: PM sampling is held from enable to disable (others then get HARDWARE_BUSY).
  int enabled_objects = 0;
  CUptiResult set_config_result = CUPTI_SUCCESS;
  CUptiResult counter_availability(size_t, std::vector<uint8_t>& a) override {
    if (enabled_objects > 0) return CUPTI_ERROR_HARDWARE_BUSY;
    a.assign(4, 0);
    return CUPTI_SUCCESS;
  }
  CUptiResult enable(size_t, CUpti_PmSampling_Object** object) override {
    calls.push_back("enable");
    if (enabled_objects > 0) return CUPTI_ERROR_HARDWARE_BUSY;
    ++enabled_objects;
    *object = reinterpret_cast<CUpti_PmSampling_Object*>(this);
    return CUPTI_SUCCESS;
  }
  CUptiResult disable(CUpti_PmSampling_Object*) override {
    calls.push_back("disable");
    --enabled_objects;
    return CUPTI_SUCCESS;
  }
  CUptiResult set_config(CUpti_PmSampling_Object*, const std::vector<uint8_t>&, size_t,
                         uint64_t) override {
    calls.push_back("set_config");
    return set_config_result;
  }
  CUptiResult counter_data_size(CUpti_PmSampling_Object*, const std::vector<const char*>&, size_t,
                                size_t& size) override {
    size = 64;
    return CUPTI_SUCCESS;
  }
  CUptiResult counter_data_initialize(CUpti_PmSampling_Object*, std::vector<uint8_t>&) override {
    calls.push_back("init_image");
    image.clear();
    return CUPTI_SUCCESS;
  }
  CUptiResult start(CUpti_PmSampling_Object*) override {
    calls.push_back("start");
    return CUPTI_SUCCESS;
  }
  CUptiResult stop(CUpti_PmSampling_Object*) override {
    calls.push_back("stop");
    return CUPTI_SUCCESS;
  }
  CUptiResult decode(CUpti_PmSampling_Object*, std::vector<uint8_t>&,
                     CUpti_PmSampling_DecodeStopReason& reason, bool& overflow) override {
    overflow = false;
    while (!pending.empty() && image.size() < capacity) {
      image.push_back(pending.front());
      pending.pop_front();
    }
    reason = pending.empty() ? CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS
                             : CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;
    return CUPTI_SUCCESS;
  }
  CUptiResult completed_samples(const std::vector<uint8_t>&, size_t& completed) override {
    completed = image.size();
    return CUPTI_SUCCESS;
  }
  CUptiResult sample_span(CUpti_PmSampling_Object*, const std::vector<uint8_t>&, size_t index,
                          uint64_t& start, uint64_t& end) override {
    if (index >= image.size()) return CUPTI_ERROR_INVALID_PARAMETER;
    start = image[index].first;
    end = image[index].second;
    return CUPTI_SUCCESS;
  }
  uint64_t timestamp() override { return now; }
};

struct received {
  uint64_t index, start, end;
  std::vector<double> values;
};

void collect(void* user, uint64_t index, rocprofiler_timestamp_t start, rocprofiler_timestamp_t end,
             const double* values, uint64_t count) {
  static_cast<std::vector<received>*>(user)->push_back(
      {index, start, end, std::vector<double>(values, values + count)});
}

struct fixture {
  pm_host host;
  pm_target target;
  std::vector<received> got;
  pm_sampler sampler;
  fixture()
      : sampler(target, host,
                rocprof_device_sample_sink_t{sizeof(rocprof_device_sample_sink_t), &got, collect},
                [] { return uint64_t{1005000}; }) {}  // CLOCK_BOOTTIME = CUPTI clock + 1 000 000
};

pm_sampler_settings settings(uint64_t interval_ns) {
  pm_sampler_settings s;
  s.interval_ns = interval_ns;
  s.decode_period_ms = 0;  // the test drains by hand
  return s;
}

TEST(pm_sampler, refuses_an_interval_below_the_minimum) {
  fixture f;
  std::string why;
  EXPECT_EQ(f.sampler.start("GH100", {"sm__cycles_active.avg"}, settings(999), why),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(why.find("1000 ns"), std::string::npos) << why;
  EXPECT_TRUE(f.target.calls.empty());
}

TEST(pm_sampler, refuses_multi_pass_sets_naming_the_counters) {
  fixture f;
  std::string why;
  EXPECT_EQ(f.sampler.start("GH100", {"a.sum", "b.sum", "multi.pass"}, settings(100000), why),
            ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT);
  EXPECT_NE(why.find("a.sum, b.sum, multi.pass together need 3 passes"), std::string::npos) << why;
  EXPECT_NE(why.find("passes needed alone: multi.pass (3)"), std::string::npos) << why;
  EXPECT_TRUE(f.target.calls.empty()) << "nothing enabled";
}

TEST(pm_sampler, delivers_samples_on_the_core_clock_without_sample_zero) {
  fixture f;
  std::string why;
  ASSERT_EQ(f.sampler.start("GH100", {"a.sum", "b.sum"}, settings(1000), why),
            ROCPROFILER_STATUS_SUCCESS)
      << why;
  EXPECT_EQ(f.target.calls,
            (std::vector<std::string>{"enable", "set_config", "init_image", "start"}));
  f.target.pending = {{0, 5000}, {5000, 6000}, {6000, 7000}, {9000, 10000}};  // 2 lost before 9000
  f.sampler.drain();
  ASSERT_EQ(f.got.size(), 3u);
  EXPECT_EQ(f.got[0].index, 1u);
  EXPECT_EQ(f.got[0].start, 1005000u);
  EXPECT_EQ(f.got[0].end, 1006000u);
  EXPECT_EQ(f.got[0].values, (std::vector<double>{10.0, 11.0}));  // sample 1 of the image
  EXPECT_EQ(f.got[1].index, 2u);
  EXPECT_EQ(f.got[2].index, 5u);
  EXPECT_EQ(f.got[2].start, 1009000u);
  f.sampler.stop();
  EXPECT_EQ(f.target.calls.back(), "disable");
}

TEST(pm_sampler, a_full_image_is_initialised_again_and_stop_decodes_the_rest) {
  fixture f;
  std::string why;
  f.target.capacity = 2;
  ASSERT_EQ(f.sampler.start("GH100", {"a.sum"}, settings(1000), why), ROCPROFILER_STATUS_SUCCESS);
  for (uint64_t t = 0; t < 5; ++t)
    f.target.pending.push_back({4000 + t * 1000, 5000 + t * 1000});
  f.sampler.drain();
  EXPECT_EQ(f.got.size(), 4u);  // 5 samples, sample 0 dropped, over three images
  f.target.pending.push_back({9000, 10000});
  f.sampler.stop();
  ASSERT_EQ(f.got.size(), 5u);
  EXPECT_EQ(f.got.back().index, 5u);
  size_t inits = 0;
  for (const std::string& c : f.target.calls)
    inits += c == "init_image" ? 1 : 0;
  EXPECT_GE(inits, 3u);
  f.target.pending.push_back({10000, 11000});
  f.sampler.drain();  // stopped: nothing more
  EXPECT_EQ(f.got.size(), 5u);
}

}  // namespace
}  // namespace rocprof::cuda

namespace rocprof::cuda {
namespace {

// AMD's device_counting_sync sample starts and stops its context around every sample: each stop
// must give the device back, a failed start too, and every start after a stop works.
TEST(pm_sampler, start_after_stop_and_after_a_failed_start_finds_the_device_free) {
  fixture f;
  std::string why;
  for (int cycle = 0; cycle < 3; ++cycle) {
    ASSERT_EQ(f.sampler.start("GH100", {"a.sum"}, settings(1000), why), ROCPROFILER_STATUS_SUCCESS)
        << "cycle " << cycle << ": " << why;
    EXPECT_EQ(f.target.enabled_objects, 1);
    f.sampler.stop();
    EXPECT_EQ(f.target.enabled_objects, 0) << "cycle " << cycle;
  }
  f.target.set_config_result = CUPTI_ERROR_UNKNOWN;
  EXPECT_EQ(f.sampler.start("GH100", {"a.sum"}, settings(1000), why), ROCPROFILER_STATUS_ERROR);
  EXPECT_EQ(f.target.enabled_objects, 0) << "a failed start holds nothing";
  f.sampler.stop();  // after a failed start: nothing to give back, nothing given back twice
  EXPECT_EQ(f.target.enabled_objects, 0);
  f.target.set_config_result = CUPTI_SUCCESS;
  ASSERT_EQ(f.sampler.start("GH100", {"a.sum"}, settings(1000), why), ROCPROFILER_STATUS_SUCCESS)
      << why;
  // A start while running restarts: the device is given back first.
  ASSERT_EQ(f.sampler.start("GH100", {"a.sum"}, settings(1000), why), ROCPROFILER_STATUS_SUCCESS)
      << why;
  EXPECT_EQ(f.target.enabled_objects, 1);
  f.sampler.stop();
  f.sampler.stop();
  EXPECT_EQ(f.target.enabled_objects, 0);
}

// The image is re-initialised once half used and delivered, before a decode could stop on a
// full image (each such stop lost a few ms of samples on the H100).
TEST(pm_sampler, image_renewed_at_half_before_it_fills) {
  fixture f;
  std::string why;
  pm_sampler_settings s = settings(1000);
  s.max_samples = 8;
  f.target.capacity = 8;
  ASSERT_EQ(f.sampler.start("GH100", {"a.sum"}, s, why), ROCPROFILER_STATUS_SUCCESS) << why;
  f.target.pending = {{0, 1000}, {1000, 2000}, {2000, 3000}, {3000, 4000}, {4000, 5000}};
  f.sampler.drain();
  EXPECT_EQ(std::count(f.target.calls.begin(), f.target.calls.end(), "init_image"), 2)
      << "renewed after 5 of 8";
  f.target.pending = {{5000, 6000}, {6000, 7000}};
  f.sampler.drain();
  ASSERT_EQ(f.got.size(), 6u);  // sample 0 spans enable -> start
  EXPECT_EQ(f.got.back().index, 6u);
  EXPECT_EQ(std::count(f.target.calls.begin(), f.target.calls.end(), "init_image"), 2);
  f.sampler.stop();
}

}  // namespace
}  // namespace rocprof::cuda
