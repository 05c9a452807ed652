#include "standalone_sink.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace rocprof::cuda {
namespace {

const char* direction_name(copy_direction d) {
  switch (d) {
    case copy_direction::host_to_host:
      return "MEMORY_COPY_HOST_TO_HOST";
    case copy_direction::host_to_device:
      return "MEMORY_COPY_HOST_TO_DEVICE";
    case copy_direction::device_to_host:
      return "MEMORY_COPY_DEVICE_TO_HOST";
    case copy_direction::device_to_device:
      return "MEMORY_COPY_DEVICE_TO_DEVICE";
    case copy_direction::peer_to_peer:
      return "MEMORY_COPY_PEER_TO_PEER";
    default:
      return "MEMORY_COPY_NONE";
  }
}

}  // namespace

standalone_options standalone_options_from_env() {
  standalone_options o;
  if (const char* out = std::getenv("ROCPROF_CUDA_STANDALONE_OUTPUT")) o.output_path = out;
  const char* list = std::getenv("ROCPROF_CUDA_DOMAINS");
  if (list == nullptr || *list == '\0') {
    for (bool& d : o.domains)
      d = true;
    return o;
  }
  std::stringstream ss{list};
  std::string item;
  while (std::getline(ss, item, ',')) {
    static const std::pair<const char*, cuda_domain> names[] = {
        {"runtime", cuda_domain::runtime_api},    {"driver", cuda_domain::driver_api},
        {"kernel", cuda_domain::kernel_dispatch}, {"memcpy", cuda_domain::memory_copy},
        {"memset", cuda_domain::memory_set},      {"alloc", cuda_domain::memory_allocation},
        {"code", cuda_domain::code_objects}};
    bool known = false;
    for (const auto& [name, domain] : names) {
      if (item == name) {
        o.domains[static_cast<size_t>(domain)] = true;
        known = true;
      }
    }
    if (!known)
      std::fprintf(stderr, "rocprofv3 [cuda]: unknown domain '%s' ignored\n", item.c_str());
  }
  return o;
}

standalone_sink::standalone_sink(standalone_options opts)
    : opts_{std::move(opts)}, api_{std::make_unique<api_event[]>(opts_.api_capacity)} {}

uint64_t standalone_sink::timestamp() {
  timespec ts{};
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

void standalone_sink::api_exit(const api_event& e) {
  const size_t i = api_count_.fetch_add(1, std::memory_order_relaxed);
  if (i < opts_.api_capacity) {
    api_[i] = e;
  } else {
    dropped_.fetch_add(1, std::memory_order_relaxed);
  }
}

void standalone_sink::emit(const kernel_event& e) {
  std::lock_guard<std::mutex> lock{mutex_};
  kernels_.push_back(e);
}
void standalone_sink::emit(const memcpy_event& e) {
  std::lock_guard<std::mutex> lock{mutex_};
  copies_.push_back(e);
}
void standalone_sink::emit(const memset_event& e) {
  std::lock_guard<std::mutex> lock{mutex_};
  sets_.push_back(e);
}
void standalone_sink::emit(const allocation_event& e) {
  std::lock_guard<std::mutex> lock{mutex_};
  allocations_.push_back(e);
}
uint64_t standalone_sink::register_gpu(const gpu_agent& a) {
  std::lock_guard<std::mutex> lock{mutex_};
  agents_.push_back(a);
  return agents_.size() + 1;  // agent 1 is the CPU
}
void standalone_sink::code_object_loaded(const code_object_event& e) {
  std::lock_guard<std::mutex> lock{mutex_};
  code_objects_.push_back(e);
}
void standalone_sink::kernel_symbol(const kernel_symbol_event& e) {
  std::lock_guard<std::mutex> lock{mutex_};
  symbols_.push_back(
      {e.kernel_id, e.code_object_id, e.mangled_name != nullptr ? e.mangled_name : ""});
}

bool standalone_sink::write(const std::string& extra_status) const {
  using nlohmann::json;
  std::lock_guard<std::mutex> lock{mutex_};
  json doc;
  doc["status"] = extra_status;
  doc["dropped"] = dropped_.load();
  json& agents = doc["agents"] = json::array();
  for (const auto& a : agents_) {
    agents.push_back(
        {{"ordinal", a.device_ordinal},
         {"name", a.name},
         {"uuid", a.uuid},
         {"pci_bus", a.pci_bus},
         {"pci_device", a.pci_device},
         {"pci_domain", a.pci_domain},
         {"cu_count", a.sm_count},
         {"wave_front_size", a.warp_size},
         {"clock_khz", a.clock_khz},
         {"max_threads_per_block", a.max_threads_per_block},
         {"shared_mem_per_block", a.shared_mem_per_block},
         {"compute", std::to_string(a.compute_major) + "." + std::to_string(a.compute_minor)}});
  }
  json& symbols = doc["kernel_symbols"] = json::array();
  for (const symbol& k : symbols_)
    symbols.push_back(
        {{"kernel_id", k.kernel_id}, {"code_object_id", k.code_object_id}, {"name", k.name}});
  json& cos = doc["code_objects"] = json::array();
  for (const auto& c : code_objects_) {
    cos.push_back({{"id", c.code_object_id},
                   {"agent", c.agent_id},
                   {"module", c.module_id},
                   {"size", c.size},
                   {"crc", c.crc}});
  }
  json& api = doc["api"] = json::array();
  const size_t n = std::min(api_count_.load(), opts_.api_capacity);
  for (size_t i = 0; i < n; ++i) {
    const api_event& e = api_[i];
    api.push_back(
        {{"domain", e.domain == api_domain::runtime ? "CUDA_RUNTIME_API" : "CUDA_DRIVER_API"},
         {"name", e.name != nullptr ? e.name : ""},
         {"corr", e.correlation_id},
         {"tid", e.tid},
         {"start", e.start_ns},
         {"end", e.end_ns},
         {"return_code", e.return_code}});
  }
  json& kernels = doc["kernels"] = json::array();
  for (const auto& k : kernels_) {
    kernels.push_back({{"dispatch_id", k.dispatch_id},
                       {"kernel_id", k.kernel_id},
                       {"agent", k.agent_id},
                       {"queue", k.queue_id},
                       {"stream", k.stream_id},
                       {"corr", k.correlation_id},
                       {"tid", k.tid},
                       {"start", k.start_ns},
                       {"end", k.end_ns},
                       {"lds", k.group_segment_size},
                       {"scratch", k.private_segment_size},
                       {"vgpr", k.arch_vgpr_count},
                       {"workgroup", {k.workgroup.x, k.workgroup.y, k.workgroup.z}},
                       {"grid", {k.grid.x, k.grid.y, k.grid.z}},
                       {"cluster", {k.cluster.x, k.cluster.y, k.cluster.z}},
                       {"graph_id", k.graph_id},
                       {"graph_node_id", k.graph_node_id}});
  }
  json& copies = doc["memcpy"] = json::array();
  for (const auto& c : copies_) {
    copies.push_back({{"direction", direction_name(c.direction)},
                      {"bytes", c.bytes},
                      {"corr", c.correlation_id},
                      {"tid", c.tid},
                      {"stream", c.stream_id},
                      {"src_agent", c.src_agent_id},
                      {"dst_agent", c.dst_agent_id},
                      {"start", c.start_ns},
                      {"end", c.end_ns},
                      {"graph_id", c.graph_id}});
  }
  json& sets = doc["memset"] = json::array();
  for (const auto& s : sets_) {
    sets.push_back({{"bytes", s.bytes},
                    {"value", s.value},
                    {"corr", s.correlation_id},
                    {"agent", s.agent_id},
                    {"stream", s.stream_id},
                    {"start", s.start_ns},
                    {"end", s.end_ns},
                    {"graph_id", s.graph_id}});
  }
  json& allocs = doc["memory_allocation"] = json::array();
  for (const auto& a : allocations_) {
    allocs.push_back({{"operation", a.operation == allocation_op::allocate ? "ALLOCATE" : "FREE"},
                      {"bytes", a.bytes},
                      {"address", a.address},
                      {"kind", a.memory_kind},
                      {"agent", a.agent_id},
                      {"corr", a.correlation_id},
                      {"tid", a.tid},
                      {"timestamp", a.timestamp_ns}});
  }
  std::ofstream out{opts_.output_path};
  if (!out) {
    std::fprintf(stderr, "rocprofv3 [cuda]: cannot write %s\n", opts_.output_path.c_str());
    return false;
  }
  out << doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  return static_cast<bool>(out);
}

}  // namespace rocprof::cuda
