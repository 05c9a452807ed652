#include "counter_collection.hpp"

#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <rocprofiler-sdk/rocprofiler.h>

#include "dispatch_selection.hpp"
#include "record_convert.hpp"
#include "rocprof/config/values.hpp"
#include "tool_state.hpp"

// The core this tool runs with may predate its counter service (an older or partial build): the
// tool then says so and runs without counters instead of failing at the first call. The other
// counter functions are only called once this one succeeded.
#pragma weak rocprofiler_configure_callback_dispatch_counting_service
#pragma weak rocprofiler_load_counter_definition

namespace rocprof::tool {

// What the dispatch counting callbacks share: the selection rules and, per agent, one counter
// config per requested group ({0}: the agent offers none of the group's counters).
struct counter_state {
  explicit counter_state(const config::tool_settings& s)
      : selector(s.kernel_include_regex, s.kernel_exclude_regex, s.kernel_iterations,
                 s.counter_groups_interval) {}

  dispatch_selector selector;
  std::vector<std::vector<std::string>> groups;
  rocprofiler_context_id_t context{};

  std::mutex mutex;
  std::unordered_map<uint64_t, std::vector<rocprofiler_counter_config_id_t>> agents;
};

namespace {

void report(const char* what, rocprofiler_status_t status) {
  if (status != ROCPROFILER_STATUS_SUCCESS)
    std::fprintf(stderr, "rocprofv3: %s failed: %s\n", what, rocprofiler_get_status_string(status));
}

// The GPU's type-relative index (what NAME:device=N names), -1 when unknown.
int64_t gpu_index_of(rocprofiler_agent_id_t agent) {
  struct query {
    uint64_t handle;
    int64_t index = -1;
  } q{agent.handle};
  rocprofiler_query_available_agents(
      ROCPROFILER_AGENT_INFO_VERSION_0,
      [](rocprofiler_agent_version_t, const void** agents, size_t n, void* data) {
        auto& out = *static_cast<query*>(data);
        for (size_t i = 0; i < n; ++i) {
          const auto* a = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
          if (a->id.handle == out.handle) out.index = a->logical_node_type_id;
        }
        return ROCPROFILER_STATUS_SUCCESS;
      },
      sizeof(rocprofiler_agent_v0_t), &q);
  return q.index;
}

// Every counter the agent offers, by name.
std::unordered_map<std::string, rocprofiler_counter_id_t> counters_of(
    rocprofiler_agent_id_t agent) {
  std::unordered_map<std::string, rocprofiler_counter_id_t> out;
  rocprofiler_iterate_agent_supported_counters(
      agent,
      [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* ids, size_t n, void* data) {
        auto& map = *static_cast<std::unordered_map<std::string, rocprofiler_counter_id_t>*>(data);
        map.reserve(n);
        for (size_t i = 0; i < n; ++i) {
          rocprofiler_counter_info_v0_t info{};
          if (rocprofiler_query_counter_info(ids[i], ROCPROFILER_COUNTER_INFO_VERSION_0, &info) ==
                  ROCPROFILER_STATUS_SUCCESS &&
              info.name != nullptr)
            map.emplace(info.name, ids[i]);
        }
        return ROCPROFILER_STATUS_SUCCESS;
      },
      &out);
  return out;
}

// One config per group for an agent, built at its first dispatch.
std::vector<rocprofiler_counter_config_id_t> build_configs(tool_state& tool, counter_state& state,
                                                           rocprofiler_agent_id_t agent) {
  const auto offered = counters_of(agent);
  const int64_t gpu = gpu_index_of(agent);
  std::vector<rocprofiler_counter_config_id_t> configs;
  for (const auto& group : state.groups) {
    std::vector<rocprofiler_counter_id_t> ids;
    std::string found, missing;
    for (const auto& raw : group) {
      const auto request = config::parse_counter_request(raw);
      if (!request) continue;  // the CLI refuses these; an unchecked hand-off may carry one
      if (request->device && static_cast<int64_t>(*request->device) != gpu) continue;
      const auto it = offered.find(request->name);
      // A native counter the agent does not list (an NVIDIA sub-metric beyond the roll-ups,
      // e.g. sm__warps_active.avg.pct_of_peak_sustained_active) is found on request.
      rocprofiler_counter_id_t id{};
      bool available = it != offered.end();
      if (available)
        id = it->second;
      else
        available = rocprofiler_find_counter(agent, request->name.c_str(), &id) ==
                    ROCPROFILER_STATUS_SUCCESS;
      std::string& list = available ? found : missing;
      list += (list.empty() ? "" : ", ") + request->name;
      if (available) ids.push_back(id);
    }
    if (!missing.empty())
      std::fprintf(stderr, "rocprofv3: counters on GPU %lld: found [%s], not available [%s]\n",
                   static_cast<long long>(gpu), found.c_str(), missing.c_str());
    rocprofiler_counter_config_id_t config{};
    if (!ids.empty()) {
      report("rocprofiler_create_counter_config",
             rocprofiler_create_counter_config(agent, ids.data(), ids.size(), &config));
    }
    size_t passes = 0;
    if (config.handle != 0 &&
        rocprofiler_query_counter_config_passes(config, &passes) == ROCPROFILER_STATUS_SUCCESS &&
        passes > 1 && !tool.settings.kernel_replay) {
      std::fprintf(stderr,
                   "rocprofv3: the counters [%s] need %zu hardware passes on GPU %lld: each "
                   "counted kernel is replayed %zu times (--replay-mode kernel says so)\n",
                   found.c_str(), passes, static_cast<long long>(gpu), passes);
    }
    if (config.handle != 0)
      for (const auto id : ids)
        define_counter(tool, agent, id);
    configs.push_back(config);
  }
  return configs;
}

void on_dispatch(rocprofiler_dispatch_counting_service_data_t data,
                 rocprofiler_counter_config_id_t* config, rocprofiler_user_data_t* user_data,
                 void* arg) {
  auto& tool = *static_cast<tool_state*>(arg);
  counter_state& state = *tool.counters;
  const auto& info = data.dispatch_info;
  const auto group =
      state.selector.select(info.kernel_id, info.agent_id.handle, state.groups.size());
  if (!group) return;
  rocprofiler_counter_config_id_t chosen{};
  {
    std::lock_guard<std::mutex> lock{state.mutex};
    auto it = state.agents.find(info.agent_id.handle);
    if (it == state.agents.end())
      it = state.agents.emplace(info.agent_id.handle, build_configs(tool, state, info.agent_id))
               .first;
    if (*group < it->second.size()) chosen = it->second[*group];
  }
  if (chosen.handle == 0) return;
  *config = chosen;
  rocprofiler_thread_id_t tid = 0;
  rocprofiler_get_thread_id(&tid);
  user_data->value = tid;
}

void on_counter_record(rocprofiler_dispatch_counting_service_data_t data,
                       rocprofiler_counter_record_t* records, size_t count,
                       rocprofiler_user_data_t user_data, void* arg) {
  auto& tool = *static_cast<tool_state*>(arg);
  if (tool.finished.load(std::memory_order_acquire) || tool.store == nullptr) return;
  if (data.start_timestamp < tool.epoch_ns.load(std::memory_order_acquire)) return;  // parent's
  const auto& info = data.dispatch_info;
  // One batch per counted dispatch: its dispatch record and its values reach the record store
  // (journal or spool) together.
  record_batch batch;
  trace::counter_dispatch_record& dispatch =
      batch.of<trace::counter_dispatch_record>().emplace_back();
  trace::kernel_dispatch_record& d = dispatch.dispatch;
  fill_dispatch_info(d, info);
  d.corr.internal = data.correlation_id.internal;
  d.corr.external = data.correlation_id.external.value;
  d.region_name = kernel_region(tool, d.corr);
  d.tid = static_cast<int64_t>(user_data.value);
  d.start_ns = data.start_timestamp;
  d.end_ns = data.end_timestamp;
  std::vector<trace::counter_value_record>& values = batch.of<trace::counter_value_record>();
  values.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    rocprofiler_counter_id_t id{};
    if (rocprofiler_query_record_counter_id(records[i].id, &id) != ROCPROFILER_STATUS_SUCCESS)
      continue;
    trace::counter_value_record v;
    v.dispatch_id = records[i].dispatch_id != 0 ? records[i].dispatch_id : info.dispatch_id;
    v.counter_id = id.handle;
    v.agent_id = records[i].agent_id.handle != 0 ? records[i].agent_id.handle : d.agent_id;
    v.instance_id = records[i].id;
    v.value = records[i].counter_value;
    values.push_back(v);
  }
  tool.defs->observe_thread(d.tid, d.start_ns, d.end_ns);
  tool.store->append(batch);
}

}  // namespace

void define_counter(tool_state& tool, rocprofiler_agent_id_t agent, rocprofiler_counter_id_t id) {
  rocprofiler_counter_info_v1_t info{};
  info.size = sizeof(info);
  if (rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_1, &info) !=
      ROCPROFILER_STATUS_SUCCESS)
    return;
  const auto text = [](const char* s) { return std::string(s != nullptr ? s : ""); };
  trace::counter_info c;
  c.id = id.handle;
  c.agent_id = agent.handle;
  c.name = text(info.name);
  c.description = text(info.description);
  c.block = text(info.block);
  c.expression = text(info.expression);
  c.is_constant = info.is_constant != 0;
  c.is_derived = info.is_derived != 0;
  for (uint64_t d = 0; d < info.dimensions_count && info.dimensions != nullptr; ++d) {
    const auto* dim = info.dimensions[d];
    if (dim != nullptr) c.dimensions.push_back({dim->id, text(dim->name), dim->instance_size});
  }
  for (uint64_t i = 0; i < info.dimensions_instances_count && info.dimensions_instances; ++i) {
    const auto* inst = info.dimensions_instances[i];
    if (inst == nullptr) continue;
    trace::counter_instance instance;
    instance.instance_id = inst->instance_id;
    instance.positions.assign(c.dimensions.size(), 0);
    for (uint64_t k = 0; k < inst->dimensions_count && inst->dimensions != nullptr; ++k) {
      const auto* pos = inst->dimensions[k];
      if (pos == nullptr || pos->dimension_name == nullptr) continue;
      for (size_t j = 0; j < c.dimensions.size(); ++j)
        if (c.dimensions[j].name == pos->dimension_name) instance.positions[j] = pos->index;
    }
    c.instances.push_back(std::move(instance));
  }
  tool.defs->add_counter(std::move(c));
}

bool configure_counter_collection(tool_state& tool) {
  const auto& s = tool.settings;
  if (!s.counter_collection) return true;
  if (&rocprofiler_configure_callback_dispatch_counting_service == nullptr) {
    std::fprintf(stderr,
                 "rocprofv3: counters not collected: this profiler core has no dispatch "
                 "counting service\n");
    return false;
  }
  if (!s.extra_counters_contents.empty() && &rocprofiler_load_counter_definition != nullptr) {
    report("rocprofiler_load_counter_definition (-E)",
           rocprofiler_load_counter_definition(s.extra_counters_contents.data(),
                                               s.extra_counters_contents.size(),
                                               ROCPROFILER_COUNTER_FLAG_APPEND_DEFINITION));
  }
  try {
    tool.counters = new counter_state(s);  // lives as long as the process (callbacks may come late)
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "rocprofv3: counters not collected: invalid kernel filter: %s\n",
                 e.what());
    return false;
  }
  counter_state& state = *tool.counters;
  // ROCPROF_COUNTERS takes precedence over ROCPROF_COUNTER_GROUPS, as in rocprofv3.
  if (!s.counters.empty())
    state.groups.push_back(s.counters);
  else
    state.groups = s.counter_groups;
  if (state.groups.empty()) return true;
  auto status = rocprofiler_create_context(&state.context);
  report("rocprofiler_create_context (counters)", status);
  if (status != ROCPROFILER_STATUS_SUCCESS) return false;
  status = rocprofiler_configure_callback_dispatch_counting_service(
      state.context, on_dispatch, &tool, on_counter_record, &tool);
  report("rocprofiler_configure_callback_dispatch_counting_service", status);
  if (status != ROCPROFILER_STATUS_SUCCESS) return false;
  return true;
}

void start_counting(tool_state& tool) {
  if (tool.counters != nullptr && tool.counters->context.handle != 0)
    report("rocprofiler_start_context (counters)",
           rocprofiler_start_context(tool.counters->context));
}

void stop_counting(tool_state& tool) {
  if (tool.counters != nullptr && tool.counters->context.handle != 0)
    rocprofiler_stop_context(tool.counters->context);
}

void note_kernel_symbol(tool_state& tool, uint64_t kernel_id, std::string_view formatted_name) {
  if (tool.counters != nullptr) tool.counters->selector.name_kernel(kernel_id, formatted_name);
}

}  // namespace rocprof::tool
