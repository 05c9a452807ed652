// CPU agents from /sys/devices/system/node (one per NUMA node; one agent from /proc/cpuinfo
// when the node directory is missing), GPU agents from backends, and the agent query.
#include "agents.hpp"

#include <dirent.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fork_guard.hpp"
#include "backend_loader.hpp"
#include "guarded.hpp"
#include "registration.hpp"

namespace rocprof::core {
namespace {

// An agent with the storage its pointers refer to.
struct owned_agent {
  rocprofiler_agent_v0_t agent{};
  std::string name, vendor_name, product_name, model_name;
  std::vector<rocprofiler_agent_mem_bank_t> mem_banks;
  std::vector<rocprofiler_agent_cache_t> caches;
  std::vector<rocprofiler_agent_io_link_t> io_links;

  void fix_pointers() {
    agent.name = name.c_str();
    agent.vendor_name = vendor_name.c_str();
    agent.product_name = product_name.c_str();
    agent.model_name = model_name.c_str();
    agent.mem_banks = mem_banks.empty() ? nullptr : mem_banks.data();
    agent.caches = caches.empty() ? nullptr : caches.data();
    agent.io_links = io_links.empty() ? nullptr : io_links.data();
    agent.mem_banks_count = static_cast<uint32_t>(mem_banks.size());
    agent.caches_count = static_cast<uint32_t>(caches.size());
    agent.io_links_count = static_cast<uint32_t>(io_links.size());
  }
};

struct agent_table {
  std::mutex mutex;
  bool cpus_discovered = false;
  std::deque<owned_agent> agents;  // deque: addresses stay valid
  uint32_t gpu_count = 0;
};

// Queried at finalization too: made without a lock, its lock held across fork()
// (fork_guard.hpp).
std::atomic<agent_table*> g_agent_table{nullptr};

agent_table& table() {
  return lazily_made(g_agent_table, [](agent_table& t) { guard_across_fork(t.mutex); });
}

// "0-3,8-11" -> (count, lowest id)
std::pair<uint32_t, uint32_t> parse_cpu_list(const std::string& list) {
  uint32_t count = 0;
  uint32_t lowest = UINT32_MAX;
  std::stringstream in(list);
  std::string range;
  while (std::getline(in, range, ',')) {
    if (range.empty()) continue;
    const size_t dash = range.find('-');
    const auto first = static_cast<uint32_t>(std::strtoul(range.c_str(), nullptr, 10));
    const auto last =
        dash == std::string::npos
            ? first
            : static_cast<uint32_t>(std::strtoul(range.c_str() + dash + 1, nullptr, 10));
    if (last >= first) count += last - first + 1;
    lowest = std::min(lowest, first);
  }
  return {count, lowest == UINT32_MAX ? 0 : lowest};
}

struct cpu_description {
  std::string model = "CPU";
  std::string vendor = "CPU";
  uint32_t mhz = 0;
};

cpu_description read_cpuinfo() {
  cpu_description d;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  auto value = [](const std::string& l) {
    const size_t colon = l.find(':');
    if (colon == std::string::npos) return std::string();
    size_t start = l.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? std::string() : l.substr(start);
  };
  bool have_model = false, have_vendor = false, have_mhz = false;
  while (std::getline(in, line)) {
    if (!have_model && line.rfind("model name", 0) == 0) {
      d.model = value(line);
      have_model = true;
    } else if (!have_vendor && line.rfind("vendor_id", 0) == 0) {
      d.vendor = value(line);
      have_vendor = true;
    } else if (!have_mhz && line.rfind("cpu MHz", 0) == 0) {
      d.mhz = static_cast<uint32_t>(std::strtod(value(line).c_str(), nullptr));
      have_mhz = true;
    }
  }
  return d;
}

void add_cpu(agent_table& t, uint32_t node, uint32_t cores, uint32_t core_base,
             const cpu_description& d) {
  owned_agent& a = t.agents.emplace_back();
  a.agent.size = sizeof(rocprofiler_agent_v0_t);
  a.agent.id.handle = t.agents.size();
  a.agent.type = ROCPROFILER_AGENT_TYPE_CPU;
  a.agent.cpu_cores_count = cores;
  a.agent.cpu_core_id_base = core_base;
  a.agent.max_engine_clk_fcompute = d.mhz;
  a.agent.node_id = node;
  a.agent.logical_node_id = static_cast<int32_t>(t.agents.size() - 1);
  a.agent.logical_node_type_id = static_cast<int32_t>(node);
  a.name = d.model;
  a.vendor_name = d.vendor;
  a.product_name = d.model;
  a.model_name = "";
  a.fix_pointers();
}

void discover_cpus(agent_table& t) {
  t.cpus_discovered = true;
  const cpu_description d = read_cpuinfo();
  std::vector<uint32_t> nodes;
  if (DIR* dir = opendir("/sys/devices/system/node")) {
    while (dirent* e = readdir(dir)) {
      if (std::strncmp(e->d_name, "node", 4) == 0 && e->d_name[4] >= '0' && e->d_name[4] <= '9')
        nodes.push_back(static_cast<uint32_t>(std::strtoul(e->d_name + 4, nullptr, 10)));
    }
    closedir(dir);
  }
  std::sort(nodes.begin(), nodes.end());
  uint32_t type_index = 0;
  for (uint32_t node : nodes) {
    std::ifstream in("/sys/devices/system/node/node" + std::to_string(node) + "/cpulist");
    std::string list;
    std::getline(in, list);
    const auto [cores, base] = parse_cpu_list(list);
    if (cores == 0) continue;  // memory-only node
    add_cpu(t, node, cores, base, d);
    t.agents.back().agent.logical_node_type_id = static_cast<int32_t>(type_index++);
  }
  if (t.agents.empty()) add_cpu(t, 0, std::max(1u, std::thread::hardware_concurrency()), 0, d);
}

// A tool asking for agents while it initialises (rocprofiler-sdk's device counting sample
// builds its configs for the first GPU agent then) sees the GPUs: the counter backends list
// theirs once, which may initialise the vendor's driver. The rocprofv3 tool is left out: it
// learns GPU agents as its backends start and must not initialise a driver in CPU-only runs.
void discover_gpus_for_tool() {
  static std::atomic<bool> tried{false};
  if (!configuration_open() || tried.load() || std::strcmp(current_tool_name(), "rocprofv3") == 0)
    return;
  {
    agent_table& t = table();
    std::lock_guard<std::mutex> lock(t.mutex);
    for (const owned_agent& a : t.agents)
      if (a.agent.type == ROCPROFILER_AGENT_TYPE_GPU) return;
  }
  if (tried.exchange(true)) return;
  discover_counter_agents();
}

}  // namespace

rocprofiler_agent_id_t register_gpu_agent(const rocprofiler_agent_v0_t* agent) {
  if (agent == nullptr) return rocprofiler_agent_id_t{0};
  agent_table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (!t.cpus_discovered) discover_cpus(t);
  // GPUs are numbered after every node already known (CPU nodes first), as KFD numbers its
  // topology nodes: node ids stay unique across agent types, which rocpd rows rely on.
  uint32_t next_node_id = 0;
  for (const owned_agent& known : t.agents)
    next_node_id = std::max(next_node_id, known.agent.node_id + 1);
  owned_agent& a = t.agents.emplace_back();
  a.agent = *agent;
  a.agent.size = sizeof(rocprofiler_agent_v0_t);
  a.agent.id.handle = t.agents.size();
  a.agent.type = ROCPROFILER_AGENT_TYPE_GPU;
  a.agent.node_id = next_node_id;
  a.agent.logical_node_id = static_cast<int32_t>(t.agents.size() - 1);
  a.agent.logical_node_type_id = static_cast<int32_t>(t.gpu_count++);
  a.name = agent->name != nullptr ? agent->name : "";
  a.vendor_name = agent->vendor_name != nullptr ? agent->vendor_name : "";
  a.product_name = agent->product_name != nullptr ? agent->product_name : "";
  a.model_name = agent->model_name != nullptr ? agent->model_name : "";
  if (agent->mem_banks != nullptr)
    a.mem_banks.assign(agent->mem_banks, agent->mem_banks + agent->mem_banks_count);
  if (agent->caches != nullptr) a.caches.assign(agent->caches, agent->caches + agent->caches_count);
  if (agent->io_links != nullptr)
    a.io_links.assign(agent->io_links, agent->io_links + agent->io_links_count);
  a.fix_pointers();
  return a.agent.id;
}

const rocprofiler_agent_v0_t* find_agent(rocprofiler_agent_id_t id) {
  agent_table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (!t.cpus_discovered) discover_cpus(t);
  // Handles are 1-based positions in the table (register_gpu_agent, add_cpu).
  if (id.handle == 0 || id.handle > t.agents.size()) return nullptr;
  const owned_agent& a = t.agents[id.handle - 1];
  return a.agent.id.handle == id.handle ? &a.agent : nullptr;
}

bool agent_known(rocprofiler_agent_id_t id) {
  agent_table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (!t.cpus_discovered) discover_cpus(t);
  return id.handle != 0 && id.handle <= t.agents.size();
}

}  // namespace rocprof::core

extern "C" ROCPROFILER_API rocprofiler_status_t rocprofiler_query_available_agents(
    rocprofiler_agent_version_t version, rocprofiler_query_available_agents_cb_t callback,
    size_t agent_size, void* user_data) {
  using namespace rocprof::core;
  return guarded(__func__, [&] {
    if (version != ROCPROFILER_AGENT_INFO_VERSION_0)
      return ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI;
    if (agent_size > sizeof(rocprofiler_agent_v0_t))
      return ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI;
    discover_gpus_for_tool();
    std::vector<const void*> pointers;
    {
      agent_table& t = table();
      std::lock_guard<std::mutex> lock(t.mutex);
      if (!t.cpus_discovered) discover_cpus(t);
      for (const owned_agent& a : t.agents)
        pointers.push_back(&a.agent);
    }
    return callback(version, pointers.data(), pointers.size(), user_data);
  });
}
