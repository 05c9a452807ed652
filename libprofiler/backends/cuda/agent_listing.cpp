#include "agent_listing.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace rocprof::cuda {

std::string agents_json(const device_query& q) {
  nlohmann::json doc;
  doc["agents"] = nlohmann::json::array();
  if (!q.error.empty()) doc["error"] = q.error;
  for (const gpu_agent& a : q.devices) {
    char pci[32];
    std::snprintf(pci, sizeof(pci), "%04x:%02x:%02x.0", a.pci_domain, a.pci_bus, a.pci_device);
    doc["agents"].push_back({
        {"ordinal", a.device_ordinal},
        {"name", a.name},
        {"uuid", a.uuid},
        {"pci", pci},
        {"compute_capability",
         std::to_string(a.compute_major) + "." + std::to_string(a.compute_minor)},
        {"sm_count", a.sm_count},
        {"warp_size", a.warp_size},
        {"max_threads_per_block", a.max_threads_per_block},
        {"max_threads_per_sm", a.max_threads_per_sm},
        {"shared_memory_per_block", a.shared_mem_per_block},
        {"shared_memory_per_sm", a.shared_mem_per_sm},
        {"clock_khz", a.clock_khz},
        {"memory_clock_khz", a.memory_clock_khz},
        {"memory_bus_width", a.memory_bus_width},
        {"total_memory", a.total_memory},
    });
  }
  return doc.dump();
}

}  // namespace rocprof::cuda
