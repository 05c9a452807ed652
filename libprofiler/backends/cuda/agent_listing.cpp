#include "agent_listing.hpp"

namespace rocprof::cuda {

uint64_t register_listed_agents(const device_query& q, backend_sink& sink, std::string& why) {
  uint64_t registered = 0;
  for (const gpu_agent& a : q.devices) {
    if (sink.register_gpu(a) != 0) ++registered;
  }
  if (registered == 0) why = q.error.empty() ? std::string{"no device"} : q.error;
  return registered;
}

}  // namespace rocprof::cuda
