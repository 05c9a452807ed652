#include "pc_sampling_service.hpp"

#include <rocprofiler-sdk/backend/backend_abi.h>
#include <rocprofiler-sdk/pc_sampling_instructions.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "tool_state.hpp"

namespace rocprof::tool {
namespace {

rocprofiler_pc_sampling_method_t method_named(std::string_view name) {
  if (name == "stochastic") return ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC;
  if (name == "host_trap") return ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP;
  return ROCPROFILER_PC_SAMPLING_METHOD_NONE;
}

rocprofiler_pc_sampling_unit_t unit_named(std::string_view name) {
  if (name == "instructions") return ROCPROFILER_PC_SAMPLING_UNIT_INSTRUCTIONS;
  if (name == "cycles") return ROCPROFILER_PC_SAMPLING_UNIT_CYCLES;
  if (name == "time") return ROCPROFILER_PC_SAMPLING_UNIT_TIME;
  return ROCPROFILER_PC_SAMPLING_UNIT_NONE;
}

std::vector<rocprofiler_agent_id_t> gpu_agents() {
  std::vector<rocprofiler_agent_id_t> out;
  rocprofiler_query_available_agents(
      ROCPROFILER_AGENT_INFO_VERSION_0,
      [](rocprofiler_agent_version_t, const void** agents, size_t count, void* data) {
        auto& v = *static_cast<std::vector<rocprofiler_agent_id_t>*>(data);
        for (size_t i = 0; i < count; ++i) {
          const auto* a = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
          if (a->type == ROCPROFILER_AGENT_TYPE_GPU) v.push_back(a->id);
        }
        return ROCPROFILER_STATUS_SUCCESS;
      },
      sizeof(rocprofiler_agent_v0_t), &out);
  return out;
}

}  // namespace

void configure_pc_sampling(tool_state& tool) {
  const auto& s = tool.settings;
  const auto method = method_named(s.pc_sampling_method);
  if (method == ROCPROFILER_PC_SAMPLING_METHOD_NONE) return;
  // GPU agents appear when a backend registers them; a CUDA application has not initialised
  // CUDA yet, so ask the backends now (the CUDA backend initialises the driver for it).
  rocprof_backend_discover_agents(
      nullptr, [](const rocprof_backend_discovery_t*, void*) {}, nullptr);
  const auto agents = gpu_agents();
  if (agents.empty()) {
    std::fprintf(stderr, "rocprofv3: PC sampling: no GPU agent\n");
    return;
  }
  rocprofiler_buffer_id_t buffer{};
  if (!make_buffer(tool, tool.main_context, &buffer)) return;
  // rocprofv3 writes NVIDIA's aggregated samples as they are (one CSV row per PC and warp state
  // with its count), so it takes them unexpanded.
  for (const auto agent : agents) {
    const auto status = rocprofiler_configure_pc_sampling_service(
        tool.main_context, agent, method, unit_named(s.pc_sampling_unit), s.pc_sampling_interval,
        buffer, ROCPROFILER_PC_SAMPLING_CONFIGURE_FLAG_AGGREGATED_RECORDS);
    if (status != ROCPROFILER_STATUS_SUCCESS)
      std::fprintf(stderr, "rocprofv3: PC sampling (%s, %s, interval %llu) on agent %llu: %s\n",
                   s.pc_sampling_method.c_str(), s.pc_sampling_unit.c_str(),
                   static_cast<unsigned long long>(s.pc_sampling_interval),
                   static_cast<unsigned long long>(agent.handle),
                   rocprofiler_get_status_string(status));
  }
}

void report_pc_sampling_losses(const tool_state& tool) {
  const auto method = method_named(tool.settings.pc_sampling_method);
  if (method == ROCPROFILER_PC_SAMPLING_METHOD_NONE) return;
  for (const auto agent : gpu_agents()) {
    rocprofiler_pc_sampling_loss_t loss{};
    if (rocprofiler_query_pc_sampling_loss(agent, &loss) != ROCPROFILER_STATUS_SUCCESS) continue;
    const std::string lost = describe_losses(loss);
    if (lost.empty()) continue;
    std::fprintf(stderr, "rocprofv3: PC sampling on agent %llu: %llu samples taken, %s\n",
                 static_cast<unsigned long long>(agent.handle),
                 static_cast<unsigned long long>(loss.total_samples), lost.c_str());
  }
}

std::vector<trace::pc_instruction> sampled_pc_instructions(const tool_state& tool) {
  std::vector<trace::pc_instruction> table;
  if (method_named(tool.settings.pc_sampling_method) == ROCPROFILER_PC_SAMPLING_METHOD_NONE)
    return table;
  struct collected {
    definitions_builder* defs;
    std::vector<trace::pc_instruction>* table;
  } collector{tool.defs.get(), &table};
  rocprofiler_query_pc_sampling_instructions(
      [](const rocprofiler_pc_sampling_instruction_t* inst, void* data) {
        auto& c = *static_cast<collected*>(data);
        if (inst == nullptr || inst->text == nullptr || inst->text[0] == '\0') return;
        c.table->push_back(trace::pc_instruction{inst->pc.code_object_id, inst->kernel_id,
                                                 inst->pc.code_object_offset,
                                                 c.defs->intern(inst->text)});
      },
      &collector);
  std::sort(table.begin(), table.end());
  return table;
}

std::string describe_losses(const rocprofiler_pc_sampling_loss_t& loss) {
  std::string out;
  auto add = [&out](uint64_t n, const char* what) {
    if (n == 0) return;
    if (!out.empty()) out += ", ";
    out += std::to_string(n) + what;
  };
  add(loss.dropped_samples, " dropped");
  add(loss.unattributed_samples, " in code of no loaded module (not attributed)");
  // Older backends fill fewer fields (size); the overflow count is past them then.
  if (loss.size >= offsetof(rocprofiler_pc_sampling_loss_t, hardware_buffer_full_events) +
                       sizeof(loss.hardware_buffer_full_events))
    add(loss.hardware_buffer_full_events,
        " reads found the hardware buffer full (samples lost, how many is unknown)");
  return out;
}

}  // namespace rocprof::tool
