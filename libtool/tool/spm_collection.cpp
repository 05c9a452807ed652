#include "spm_collection.hpp"

#include <rocprofiler-sdk/backend/backend_abi.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <cstdio>
#include <string>
#include <vector>

#include "counter_collection.hpp"
#include "tool_state.hpp"

namespace rocprof::tool {
namespace {

struct spm_state {
  rocprofiler_context_id_t context{};
  rocprofiler_buffer_id_t buffer{};
  bool configured = false;
};

spm_state& spm() {
  static spm_state s;
  return s;
}

void on_samples(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                rocprofiler_record_header_t** headers, size_t count, void* data, uint64_t drops) {
  auto& tool = *static_cast<tool_state*>(data);
  if (tool.finished.load(std::memory_order_acquire) || tool.store == nullptr) return;
  record_batch batch;  // to the record store: journal (recoverable) or spool
  std::vector<trace::device_counter_sample_record>& samples =
      batch.of<trace::device_counter_sample_record>();
  samples.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    if (headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_COUNTERS ||
        headers[i]->kind != ROCPROFILER_COUNTER_RECORD_SPM_SAMPLE)
      continue;
    const auto* r = static_cast<const rocprofiler_spm_sample_record_t*>(headers[i]->payload);
    rocprofiler_counter_id_t id{};
    if (rocprofiler_query_record_counter_id(r->id, &id) != ROCPROFILER_STATUS_SUCCESS) continue;
    trace::device_counter_sample_record s;
    s.agent_id = r->agent_id.handle;
    s.counter_id = id.handle;
    s.timestamp_ns = r->start_timestamp;
    s.value = r->counter_value;
    samples.push_back(s);
  }
  if (drops != 0)
    std::fprintf(stderr, "rocprofv3: --spm: %llu sample records dropped\n",
                 static_cast<unsigned long long>(drops));
  if (!samples.empty()) tool.store->append(batch);
}

std::vector<rocprofiler_agent_id_t> gpu_agents() {
  // The GPUs are not known yet at initialisation: the backends list them (driver start).
  rocprof_backend_discover_agents(
      nullptr, [](const rocprof_backend_discovery_t*, void*) {}, nullptr);
  std::vector<rocprofiler_agent_id_t> gpus;
  rocprofiler_query_available_agents(
      ROCPROFILER_AGENT_INFO_VERSION_0,
      [](rocprofiler_agent_version_t, const void** agents, size_t n, void* user) {
        auto& out = *static_cast<std::vector<rocprofiler_agent_id_t>*>(user);
        for (size_t i = 0; i < n; ++i) {
          const auto* a = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
          if (a->type == ROCPROFILER_AGENT_TYPE_GPU) out.push_back(a->id);
        }
        return ROCPROFILER_STATUS_SUCCESS;
      },
      sizeof(rocprofiler_agent_v0_t), &gpus);
  return gpus;
}

// The --spm config of one GPU; {0} (after saying why) when a name is not offered.
rocprofiler_counter_config_id_t config_for(tool_state& tool, rocprofiler_agent_id_t gpu) {
  std::vector<rocprofiler_counter_id_t> ids;
  for (const std::string& name : tool.settings.spm_counters) {
    rocprofiler_counter_id_t id{};
    if (rocprofiler_find_counter(gpu, name.c_str(), &id) != ROCPROFILER_STATUS_SUCCESS) {
      std::fprintf(stderr, "rocprofv3: --spm: GPU agent %llu has no counter '%s'\n",
                   static_cast<unsigned long long>(gpu.handle), name.c_str());
      return rocprofiler_counter_config_id_t{0};
    }
    ids.push_back(id);
    define_counter(tool, gpu, id);
  }
  rocprofiler_counter_config_id_t config{0};
  const rocprofiler_status_t st =
      rocprofiler_create_counter_config(gpu, ids.data(), ids.size(), &config);
  if (st != ROCPROFILER_STATUS_SUCCESS) {
    std::fprintf(stderr, "rocprofv3: --spm: the counters cannot be collected together: %s\n",
                 rocprofiler_get_status_string(st));
    return rocprofiler_counter_config_id_t{0};
  }
  return config;
}

}  // namespace

bool configure_spm_collection(tool_state& tool) {
  const auto& s = tool.settings;
  if (s.spm_counters.empty()) return true;
  spm_state& st = spm();
  if (rocprofiler_create_context(&st.context) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_create_buffer(st.context, 1 << 22, 1 << 21, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                on_samples, &tool, &st.buffer) != ROCPROFILER_STATUS_SUCCESS) {
    std::fprintf(stderr, "rocprofv3: --spm: cannot create its context or buffer\n");
    return false;
  }
  rocprofiler_callback_thread_t thread{};
  if (rocprofiler_create_callback_thread(&thread) == ROCPROFILER_STATUS_SUCCESS)
    rocprofiler_assign_callback_thread(st.buffer, thread);
  tool.buffers.push_back(st.buffer);  // flushed with the others at exit
  const std::vector<rocprofiler_agent_id_t> gpus = gpu_agents();
  if (gpus.empty()) {
    std::fprintf(stderr, "rocprofv3: --spm: no GPU agent: nothing sampled\n");
    return false;
  }
  for (const rocprofiler_agent_id_t gpu : gpus) {
    const rocprofiler_counter_config_id_t config = config_for(tool, gpu);
    if (config.handle == 0) return false;
    const rocprofiler_status_t status =
        rocprofiler_configure_spm_service(st.context, st.buffer, config, s.spm_interval_ns);
    if (status != ROCPROFILER_STATUS_SUCCESS) {
      std::fprintf(stderr, "rocprofv3: --spm: %s\n", rocprofiler_get_status_string(status));
      return false;
    }
  }
  st.configured = true;
  return true;
}

void start_spm(tool_state&) {
  spm_state& st = spm();
  if (!st.configured) return;
  const rocprofiler_status_t status = rocprofiler_start_context(st.context);
  if (status == ROCPROFILER_STATUS_SUCCESS) return;
  const char* why = "";
  rocprofiler_device_sampling_last_error(&why);
  std::fprintf(stderr, "rocprofv3: --spm: sampling did not start (%s): %s\n",
               rocprofiler_get_status_string(status), why);
}

void stop_spm(tool_state&) {
  if (spm().configured) rocprofiler_stop_context(spm().context);
}

}  // namespace rocprof::tool
