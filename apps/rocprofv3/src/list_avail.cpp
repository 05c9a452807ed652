#include "list_avail.hpp"

#include "pc_sampling_check.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <vector>

#include "core_agents.hpp"
#include "rocprof/common/gpu_uuid.hpp"
#include "tool_paths.hpp"

namespace rocprof::cli {
namespace {

std::string field_value(const std::string& line) {
  const size_t colon = line.find(':');
  if (colon == std::string::npos) return "";
  const size_t start = line.find_first_not_of(" \t", colon + 1);
  return start == std::string::npos ? "" : line.substr(start);
}

void print_cpu_agents(std::ostream& out, const std::string& cpuinfo_path) {
  // One CPU agent per physical package, as the profiler core numbers them.
  std::ifstream in(cpuinfo_path);
  std::map<std::string, std::string> package_model;
  std::map<std::string, int> package_threads;
  std::string model = "unknown CPU";
  std::string package = "0";
  for (std::string line; std::getline(in, line);) {
    const std::string key = line.substr(0, line.find_first_of("\t:"));
    if (key == "model name") model = field_value(line);
    if (key == "physical id") package = field_value(line);
    if (line.empty() || in.peek() == EOF) {
      if (!model.empty()) {
        package_model[package] = model;
        ++package_threads[package];
      }
      package = "0";
    }
  }
  out << "CPU agents:\n";
  int index = 0;
  for (const auto& [id, name] : package_model) {
    out << "  CPU:" << index++ << "\n    Name: " << name
        << "\n    Logical processors: " << package_threads[id] << "\n";
  }
  if (package_model.empty()) out << "  (none found in " << cpuinfo_path << ")\n";
}

std::string core_library() {
  try {
    return find_tool_paths("").core();
  } catch (const std::exception&) {
    return "librocprofiler-sdk.so";  // let the loader search
  }
}

std::string joined(const std::vector<std::string>& reasons) {
  std::string text;
  for (const auto& reason : reasons)
    text += (text.empty() ? "" : "; ") + reason;
  return text;
}

std::vector<rocprofiler_agent_v0_t> print_gpu_agents(std::ostream& out,
                                                     const std::string& backend_directory) {
  gpu_agent_list list = query_gpu_agents(core_library(), backend_directory);
  if (list.gpus.empty()) {
    out << "GPU agents: none found (" << joined(list.why_none) << ")\n";
    return {};
  }
  out << "GPU agents:\n";
  for (size_t i = 0; i < list.gpus.size(); ++i) {
    print_gpu_agent(out, list.gpus[i]);
    if (i < list.pc_sampling.size()) print_pc_sampling_configurations(out, list.pc_sampling[i]);
  }
  return std::move(list.gpus);
}

}  // namespace

void print_gpu_agent(std::ostream& out, const rocprofiler_agent_v0_t& a) {
  // location_id holds the PCI bus, device and function as KFD packs them (bus << 8 | dev << 3).
  char pci[32];
  std::snprintf(pci, sizeof(pci), "%04x:%02x:%02x.%x", a.domain, a.location_id >> 8,
                (a.location_id >> 3) & 0x1f, a.location_id & 0x7);
  out << "  GPU:" << a.logical_node_type_id << "\n    Name: " << (a.name != nullptr ? a.name : "")
      << "\n    UUID: " << common::format_gpu_uuid(a.uuid.bytes) << "\n    PCI location: " << pci
      << "\n    Compute capability: " << a.gfx_target_version / 10 << "."
      << a.gfx_target_version % 10 << "\n    Compute units (SMs): " << a.cu_count
      << "\n    Wavefront (warp) size: " << a.wave_front_size
      << "\n    Max threads per block: " << a.workgroup_max_size
      << "\n    Shared memory per block (bytes): " << a.workgroup_max_lds_size
      << "\n    Clock (kHz): " << a.max_engine_clk_fcompute_khz
      << "\n    Memory (bytes): " << a.local_mem_size << "\n";
}

void print_list_avail(std::ostream& out, const std::string& cpuinfo_path,
                      const std::string& backend_directory, const counter_printer& counters) {
  print_cpu_agents(out, cpuinfo_path);
  const auto gpus = print_gpu_agents(out, backend_directory);
  if (counters) counters(out, gpus);
}

}  // namespace rocprof::cli
