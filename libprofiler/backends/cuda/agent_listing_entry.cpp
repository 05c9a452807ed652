// rocprof_cuda_list_agents_json: what `rocprofv3 --list-avail` asks this plugin
// (agent_listing.hpp). Runs in the CLI's own process, never in a profiled application: it
// initialises the CUDA driver (cuInit) there, which the tracing paths leave to the application.
#include <mutex>
#include <string>

#include "agent_listing.hpp"
#include "rocprof/common/c_boundary.hpp"

extern "C" __attribute__((visibility("default"))) const char* rocprof_cuda_list_agents_json(void) {
  // Kept for the plugin's lifetime, so the caller may read it until it closes the plugin.
  static std::once_flag once;
  static std::string* text = nullptr;
  return rocprof::c_boundary::guarded_or(
      __func__, R"({"agents":[],"error":"the CUDA plugin could not list its agents"})", [] {
        std::call_once(once, [] {
          text = new std::string{rocprof::cuda::agents_json(rocprof::cuda::query_devices())};
        });
        return text->c_str();
      });
}
