// rocprof_backend_discover_agents (backend_abi.h): the agent listing's way to every backend,
// for `rocprofv3 --list-avail`. The CLI opens the core with dlopen, calls this, then
// rocprofiler_query_available_agents; no tool is initialised.
#include <string>

#include "backend_loader.hpp"
#include "backend_scan.hpp"
#include "guarded.hpp"

extern "C" ROCPROFILER_API rocprofiler_status_t rocprof_backend_discover_agents(
    const char* directory, rocprof_backend_discovery_cb_t callback, void* user_data) {
  using namespace rocprof::core;
  if (callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  return guarded(__func__, [&] {
    const std::string searched =
        directory != nullptr && directory[0] != '\0' ? std::string(directory) : backend_directory();
    const std::vector<discovered_backend> found = discover_backend_agents(searched);
    rocprof_backend_discovery_t report{};
    report.size = sizeof(report);
    report.directory = searched.c_str();
    if (found.empty()) callback(&report, user_data);
    for (const discovered_backend& d : found) {
      report.name = d.name.c_str();
      report.path = d.path.c_str();
      report.loaded = d.loaded ? 1 : 0;
      report.agents = d.agents;
      report.why = d.agents == 0 ? d.why.c_str() : nullptr;
      callback(&report, user_data);
    }
    return ROCPROFILER_STATUS_SUCCESS;
  });
}
