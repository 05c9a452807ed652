#include "list_avail.hpp"

#include <dlfcn.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

#include "tool_paths.hpp"

namespace rocprof::cli {
namespace {

constexpr const char* plugin_file = "librocprofiler-sdk-cuda.so";

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

std::string default_plugin_path() {
  if (const char* dir = std::getenv("ROCPROF_BACKEND_DIR"); dir != nullptr && dir[0] != '\0')
    return std::string{dir} + "/" + plugin_file;
  try {
    return find_tool_paths("").cuda_plugin();
  } catch (const std::exception&) {
    return plugin_file;  // let the loader search
  }
}

// The listing document from the plugin, or an empty string with `why` set.
std::string query_plugin(const std::string& path, std::string& why) {
  if (!is_file(path)) {
    why = "the CUDA backend is not part of this build (" + path + " not found)";
    return {};
  }
  // Kept open: the plugin may have started driver threads; the process ends soon anyway.
  void* plugin = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (plugin == nullptr) {
    const char* error = dlerror();
    why = "cannot load the CUDA backend: " + std::string{error != nullptr ? error : path};
    return {};
  }
  using list_fn = const char* (*)();
  auto list = reinterpret_cast<list_fn>(dlsym(plugin, "rocprof_cuda_list_agents_json"));
  const char* text = list != nullptr ? list() : nullptr;
  if (text == nullptr) {
    why = "the CUDA backend at " + path + " cannot list agents (an older plugin?)";
    return {};
  }
  return text;
}

std::string text_of(const nlohmann::json& doc, const char* key) {
  const auto it = doc.find(key);
  if (it == doc.end()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

void print_gpu_agents(std::ostream& out, const std::string& plugin_path) {
  std::string why;
  const std::string text = query_plugin(plugin_path, why);
  nlohmann::json doc;
  if (!text.empty()) {
    doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
      why = "the CUDA backend returned an unreadable agent list";
      doc = nlohmann::json::object();
    }
  }
  const auto agents = doc.find("agents");
  if (agents == doc.end() || !agents->is_array() || agents->empty()) {
    if (why.empty()) {
      const std::string error = text_of(doc, "error");
      why = "CUDA backend: " + (error.empty() ? std::string{"no device"} : error);
    }
    out << "GPU agents: none found (" << why << ")\n";
    return;
  }
  out << "GPU agents:\n";
  for (const nlohmann::json& a : *agents) {
    out << "  GPU:" << text_of(a, "ordinal") << "\n    Name: " << text_of(a, "name")
        << "\n    UUID: " << text_of(a, "uuid") << "\n    PCI location: " << text_of(a, "pci")
        << "\n    Compute capability: " << text_of(a, "compute_capability")
        << "\n    Compute units (SMs): " << text_of(a, "sm_count")
        << "\n    Wavefront (warp) size: " << text_of(a, "warp_size")
        << "\n    Max threads per block: " << text_of(a, "max_threads_per_block")
        << "\n    Shared memory per block (bytes): " << text_of(a, "shared_memory_per_block")
        << "\n    Clock (kHz): " << text_of(a, "clock_khz")
        << "\n    Memory (bytes): " << text_of(a, "total_memory") << "\n";
  }
  out << "  Hardware counters (--pmc): not collected by this build's CUDA backend.\n";
}

}  // namespace

void print_list_avail(std::ostream& out, const std::string& cpuinfo_path,
                      const std::string& cuda_plugin) {
  print_cpu_agents(out, cpuinfo_path);
  print_gpu_agents(out, cuda_plugin.empty() ? default_plugin_path() : cuda_plugin);
}

}  // namespace rocprof::cli
