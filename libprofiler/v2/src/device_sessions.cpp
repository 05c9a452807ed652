#include "device_sessions.hpp"

#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

#include "sessions.hpp"

namespace rocprof::v2::device_sessions {
namespace {

struct device_session {
  std::vector<std::string> counters;
  std::unique_ptr<device_counter_source> source;
  bool started = false;
  std::vector<double> values;
};

struct registry {
  std::mutex mutex;
  // Handles count down from the top so that they never meet rocprofiler_create_session's.
  uint64_t next_id = ~uint64_t{0};
  std::map<uint64_t, device_session> sessions;
};
registry& the_registry() {
  static auto* r = new registry();
  return *r;
}

}  // namespace

std::unique_ptr<device_counter_source> make_source(const std::vector<std::string>& counters,
                                                   int gpu_index, rocprofiler_status_t& status,
                                                   std::string& why) {
  core_port::device_counter_error error{};
  std::unique_ptr<device_counter_source> source =
      core_port::open_device_counter(counters, gpu_index, error, why);
  if (source != nullptr) return source;
  switch (error) {
    case core_port::device_counter_error::no_service:
      status = ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
      break;
    case core_port::device_counter_error::no_gpu:
      status = ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
      break;
    case core_port::device_counter_error::unknown_counter:
      status = ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
      break;
    case core_port::device_counter_error::not_countable:
      status = ROCPROFILER_STATUS_ERROR;
      break;
  }
  return nullptr;
}

rocprofiler_status_t create(const char** counter_names, uint64_t num_counters,
                            rocprofiler_session_id_t* session_id, int cpu_index, int gpu_index) {
  if (!sessions::initialized()) return ROCPROFILER_STATUS_ERROR_NOT_INITIALIZED;
  if (counter_names == nullptr || num_counters == 0 || session_id == nullptr || cpu_index < 0 ||
      gpu_index < 0)
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
  device_session s;
  for (uint64_t i = 0; i < num_counters; ++i) {
    // metric_name holds 63 characters and the NUL.
    if (counter_names[i] == nullptr || std::strlen(counter_names[i]) >= 64)
      return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
    s.counters.emplace_back(counter_names[i]);
  }
  std::string why;
  rocprofiler_status_t status = ROCPROFILER_STATUS_ERROR;
  s.source = make_source(s.counters, gpu_index, status, why);
  if (s.source == nullptr) {
    if (status == ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED)
      return sessions::not_implemented(why.c_str());
    std::fprintf(stderr, "rocprofiler v2: device profiling session: %s\n", why.c_str());
    return status;
  }
  registry& r = the_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  session_id->handle = r.next_id--;
  r.sessions[session_id->handle] = std::move(s);
  return ROCPROFILER_STATUS_SUCCESS;
}

// The session, or the status saying why there is none.
template <typename Fn>
rocprofiler_status_t with_session(rocprofiler_session_id_t id, Fn&& fn) {
  registry& r = the_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.sessions.find(id.handle);
  if (it == r.sessions.end()) return ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND;
  return fn(it);
}

rocprofiler_status_t start(rocprofiler_session_id_t id) {
  return with_session(id, [](auto it) {
    device_session& s = it->second;
    if (s.started) return ROCPROFILER_STATUS_ERROR_HAS_ACTIVE_SESSION;
    if (!s.source->start()) return ROCPROFILER_STATUS_ERROR;
    s.started = true;
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

rocprofiler_status_t poll(rocprofiler_session_id_t id, rocprofiler_device_profile_metric_t* data) {
  if (data == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
  return with_session(id, [&](auto it) {
    device_session& s = it->second;
    if (!s.started) return ROCPROFILER_STATUS_ERROR_SESSION_NOT_ACTIVE;
    s.values.assign(s.counters.size(), 0.0);
    if (!s.source->read(s.values)) return ROCPROFILER_STATUS_ERROR;
    for (size_t i = 0; i < s.counters.size(); ++i) {
      std::memset(data[i].metric_name, 0, sizeof(data[i].metric_name));
      std::memcpy(data[i].metric_name, s.counters[i].c_str(), s.counters[i].size());
      data[i].value.value = s.values[i];
    }
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

rocprofiler_status_t stop(rocprofiler_session_id_t id) {
  return with_session(id, [](auto it) {
    device_session& s = it->second;
    if (!s.started) return ROCPROFILER_STATUS_ERROR_SESSION_NOT_ACTIVE;
    s.source->stop();
    s.started = false;
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

rocprofiler_status_t destroy(rocprofiler_session_id_t id) {
  registry& r = the_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.sessions.find(id.handle);
  if (it == r.sessions.end()) return ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND;
  if (it->second.started) it->second.source->stop();
  r.sessions.erase(it);
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // namespace rocprof::v2::device_sessions
