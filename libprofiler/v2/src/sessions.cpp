#include "sessions.hpp"

#include <atomic>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "code_objects.hpp"
#include "core_port.hpp"
#include "filters.hpp"
#include "record_buffer.hpp"
#include "routes.hpp"

namespace rocprof::v2 {
namespace sessions {
namespace {

struct session {
  std::map<uint64_t, filter_def> filters;
  std::map<uint64_t, std::shared_ptr<record_buffer>> buffers;
  bool active = false;
};

struct registry {
  std::mutex mutex;
  bool initialized = false;
  uint64_t next_id = 1;  // sessions, filters and buffers share one sequence
  std::map<uint64_t, session> sessions;
};
registry& the_registry() {
  static auto* r = new registry();  // leaked: delivery threads may read during exit
  return *r;
}

// The active session's routes (routes.hpp: published once, never freed).
std::atomic<const session_routes*> g_active{nullptr};

session* find(registry& r, rocprofiler_session_id_t id) {
  auto it = r.sessions.find(id.handle);
  return it == r.sessions.end() ? nullptr : &it->second;
}

// Start, terminate, destroy and finalize run one at a time: stopping collection waits for the
// core's delivery thread, whose buffer callbacks may call back into the registry, so the
// registry's lock is not held meanwhile; this one keeps a start from slipping in.
std::mutex& transition_mutex() {
  static auto* m = new std::mutex();
  return *m;
}

// Marks the active session inactive (registry locked) and hands back its buffers.
std::vector<std::shared_ptr<record_buffer>> detach_active(session& s) {
  s.active = false;
  std::vector<std::shared_ptr<record_buffer>> buffers;
  for (auto& entry : s.buffers)
    buffers.push_back(entry.second);
  return buffers;
}

// Every session's routes stay allocated for good (routes.hpp: a reader may hold them after the
// session ends); listing them keeps them reachable, so leak checkers see no leak.
const session_routes* keep_published(const session_routes* routes) {
  static auto* published = new std::vector<const session_routes*>;  // under the transition lock
  published->push_back(routes);
  return routes;
}

// Stops collection and delivers what the core still held into the buffers of the session
// that was active, then its buffers to their callbacks (registry not locked).
void drain(const std::vector<std::shared_ptr<record_buffer>>& buffers) {
  core_port::stop_sync_api();
  core_port::stop_tracing();
  core_port::flush();
  g_active.store(nullptr);
  for (const auto& b : buffers)
    b->deliver();
}

}  // namespace

rocprofiler_status_t not_implemented(const char* what) {
  static std::mutex mutex;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(mutex);
  if (said.insert(what).second)
    std::fprintf(stderr, "rocprofiler v2: %s (ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED)\n", what);
  return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

rocprofiler_status_t initialize() {
  registry& r = the_registry();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    if (r.initialized) return ROCPROFILER_STATUS_ERROR_ALREADY_INITIALIZED;
    r.initialized = true;
  }
  core_port::connect();  // without the core, sessions still work but record nothing
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t finalize() {
  std::lock_guard<std::mutex> transition(transition_mutex());
  registry& r = the_registry();
  std::vector<std::shared_ptr<record_buffer>> active_buffers, all_buffers;
  bool was_active = false;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.initialized) return ROCPROFILER_STATUS_ERROR_NOT_INITIALIZED;
    for (auto& entry : r.sessions) {
      if (entry.second.active) {
        active_buffers = detach_active(entry.second);
        was_active = true;
      }
      for (auto& b : entry.second.buffers)
        all_buffers.push_back(b.second);
    }
  }
  // Deliveries first, while the sessions still exist: their callbacks walk the records with
  // rocprofiler_next_record, which checks the session and the buffer.
  if (was_active) drain(active_buffers);
  for (auto& b : all_buffers)
    b->close();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.sessions.clear();
  r.initialized = false;
  return ROCPROFILER_STATUS_SUCCESS;
}

bool initialized() {
  registry& r = the_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.initialized;
}

rocprofiler_status_t create_session(rocprofiler_replay_mode_t mode, rocprofiler_session_id_t* id) {
  if (id == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
  if (mode != ROCPROFILER_NONE_REPLAY_MODE) return ROCPROFILER_STATUS_ERROR_INCORRECT_REPLAY_MODE;
  registry& r = the_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (!r.initialized) return ROCPROFILER_STATUS_ERROR_NOT_INITIALIZED;
  id->handle = r.next_id++;
  r.sessions[id->handle];
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t destroy_session(rocprofiler_session_id_t id) {
  std::lock_guard<std::mutex> transition(transition_mutex());
  registry& r = the_registry();
  bool was_active = false;
  std::vector<std::shared_ptr<record_buffer>> buffers;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.initialized) return ROCPROFILER_STATUS_ERROR_NOT_INITIALIZED;
    session* s = find(r, id);
    if (s == nullptr) return ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND;
    was_active = s->active;
    buffers = detach_active(*s);  // (an inactive session's buffers, the same way)
  }
  // The last deliveries happen while the session still exists (finalize says why).
  if (was_active) drain(buffers);
  for (auto& b : buffers)
    b->close();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.sessions.erase(id.handle);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t start_session(rocprofiler_session_id_t id) {
  std::lock_guard<std::mutex> transition(transition_mutex());
  registry& r = the_registry();
  bool sync = false;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.initialized) return ROCPROFILER_STATUS_ERROR_NOT_INITIALIZED;
    session* s = find(r, id);
    if (s == nullptr) return ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND;
    for (const auto& entry : r.sessions)
      if (entry.second.active) return ROCPROFILER_STATUS_ERROR_HAS_ACTIVE_SESSION;
    if (s->filters.empty()) return ROCPROFILER_STATUS_ERROR_SESSION_MISSING_FILTER;
    auto routes = std::make_unique<session_routes>();
    const rocprofiler_status_t status = compile_routes(s->filters, s->buffers, id, *routes);
    if (status != ROCPROFILER_STATUS_SUCCESS) return status;
    if (!core_port::tracing_available()) return ROCPROFILER_STATUS_ERROR;  // connect() said why
    sync = routes->sync;
    g_active.store(keep_published(routes.release()));
    s->active = true;
  }
  core_port::start_tracing();
  if (sync) core_port::start_sync_api();
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t terminate_session(rocprofiler_session_id_t id) {
  std::lock_guard<std::mutex> transition(transition_mutex());
  registry& r = the_registry();
  std::vector<std::shared_ptr<record_buffer>> to_deliver;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.initialized) return ROCPROFILER_STATUS_ERROR_NOT_INITIALIZED;
    session* s = find(r, id);
    if (s == nullptr) return ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND;
    if (!s->active) return ROCPROFILER_STATUS_ERROR_SESSION_NOT_ACTIVE;
    to_deliver = detach_active(*s);
  }
  drain(to_deliver);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t create_filter(rocprofiler_session_id_t session_id,
                                   rocprofiler_filter_kind_t kind, rocprofiler_filter_data_t data,
                                   uint64_t data_count, rocprofiler_filter_id_t* id,
                                   const rocprofiler_filter_property_t& property) {
  if (id == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
  filter_def f;
  registry& r = the_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (!r.initialized) return ROCPROFILER_STATUS_ERROR_NOT_INITIALIZED;
  session* s = find(r, session_id);
  if (s == nullptr) return ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND;
  if (s->active) return ROCPROFILER_STATUS_ERROR_HAS_ACTIVE_SESSION;
  const rocprofiler_status_t status = read_filter(kind, data, data_count, property, f);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  id->value = r.next_id++;
  s->filters[id->value] = std::move(f);
  return ROCPROFILER_STATUS_SUCCESS;
}

// A filter of an inactive session, or the status saying why not.
template <typename Fn>
rocprofiler_status_t with_filter(rocprofiler_session_id_t session_id,
                                 rocprofiler_filter_id_t filter, Fn&& fn) {
  registry& r = the_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (!r.initialized) return ROCPROFILER_STATUS_ERROR_NOT_INITIALIZED;
  session* s = find(r, session_id);
  if (s == nullptr) return ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND;
  auto it = s->filters.find(filter.value);
  if (it == s->filters.end()) return ROCPROFILER_STATUS_ERROR_FILTER_NOT_FOUND;
  if (s->active) return ROCPROFILER_STATUS_ERROR_HAS_ACTIVE_SESSION;
  return fn(*s, it);
}

rocprofiler_status_t set_filter_buffer(rocprofiler_session_id_t session_id,
                                       rocprofiler_filter_id_t filter,
                                       rocprofiler_buffer_id_t buffer) {
  return with_filter(session_id, filter, [&](session& s, auto it) {
    if (s.buffers.count(buffer.value) == 0) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    it->second.buffer = buffer.value;
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

rocprofiler_status_t set_sync_callback(rocprofiler_session_id_t session_id,
                                       rocprofiler_filter_id_t filter,
                                       rocprofiler_sync_callback_t callback) {
  return with_filter(session_id, filter, [&](session&, auto it) {
    if (callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
    if (it->second.kind != ROCPROFILER_API_TRACE)
      return ROCPROFILER_STATUS_ERROR_SESSION_FILTER_DATA_MISMATCH;
    it->second.sync = callback;
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

rocprofiler_status_t destroy_filter(rocprofiler_session_id_t session_id,
                                    rocprofiler_filter_id_t filter) {
  return with_filter(session_id, filter, [&](session& s, auto it) {
    s.filters.erase(it);
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

rocprofiler_status_t create_buffer(rocprofiler_session_id_t session_id,
                                   rocprofiler_buffer_callback_t callback, size_t size,
                                   rocprofiler_buffer_id_t* id) {
  if (id == nullptr || callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
  // Room for at least one record of each kind this library writes.
  if (size < sizeof(rocprofiler_record_tracer_t) || size < sizeof(rocprofiler_record_profiler_t))
    return ROCPROFILER_STATUS_ERROR_INCORRECT_SIZE;
  registry& r = the_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (!r.initialized) return ROCPROFILER_STATUS_ERROR_NOT_INITIALIZED;
  session* s = find(r, session_id);
  if (s == nullptr) return ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND;
  id->value = r.next_id++;
  s->buffers[id->value] = std::make_shared<record_buffer>(session_id, *id, callback, size);
  return ROCPROFILER_STATUS_SUCCESS;
}

// The session owning a buffer (registry locked), or the status saying why there is none.
rocprofiler_status_t find_buffer(registry& r, rocprofiler_session_id_t session_id,
                                 rocprofiler_buffer_id_t buffer, session*& owner) {
  if (!r.initialized) return ROCPROFILER_STATUS_ERROR_NOT_INITIALIZED;
  owner = find(r, session_id);
  if (owner == nullptr) return ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND;
  return owner->buffers.count(buffer.value) != 0 ? ROCPROFILER_STATUS_SUCCESS
                                                 : ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
}

// A buffer of a session, taken out of the registry's lock so that callbacks may run.
rocprofiler_status_t lookup_buffer(rocprofiler_session_id_t session_id,
                                   rocprofiler_buffer_id_t buffer,
                                   std::shared_ptr<record_buffer>& out) {
  registry& r = the_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  session* s = nullptr;
  const rocprofiler_status_t status = find_buffer(r, session_id, buffer, s);
  if (status == ROCPROFILER_STATUS_SUCCESS) out = s->buffers[buffer.value];
  return status;
}

rocprofiler_status_t set_buffer_properties(rocprofiler_session_id_t session_id,
                                           rocprofiler_buffer_id_t buffer,
                                           const rocprofiler_buffer_property_t* properties,
                                           uint32_t count) {
  if (properties == nullptr && count != 0) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
  std::shared_ptr<record_buffer> b;
  const rocprofiler_status_t status = lookup_buffer(session_id, buffer, b);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  for (uint32_t i = 0; i < count; ++i) {
    if (properties[i].kind != ROCPROFILER_BUFFER_PROPERTY_KIND_INTERVAL_FLUSH)
      return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
    if (properties[i].value == 0) return ROCPROFILER_STATUS_ERROR_INCORRECT_FLUSH_INTERVAL;
  }
  for (uint32_t i = 0; i < count; ++i)
    b->set_flush_interval(properties[i].value);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t destroy_buffer(rocprofiler_session_id_t session_id,
                                    rocprofiler_buffer_id_t buffer) {
  std::shared_ptr<record_buffer> b;
  {
    registry& r = the_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    session* s = nullptr;
    const rocprofiler_status_t status = find_buffer(r, session_id, buffer, s);
    if (status != ROCPROFILER_STATUS_SUCCESS) return status;
    b = s->buffers[buffer.value];
    s->buffers.erase(buffer.value);
    for (auto& f : s->filters)
      if (f.second.buffer == buffer.value) f.second.buffer = 0;
  }
  b->close();
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t flush_data(rocprofiler_session_id_t session_id,
                                rocprofiler_buffer_id_t buffer) {
  std::shared_ptr<record_buffer> b;
  const rocprofiler_status_t status = lookup_buffer(session_id, buffer, b);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  core_port::flush();
  b->deliver();
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t check_buffer(rocprofiler_session_id_t session_id,
                                  rocprofiler_buffer_id_t buffer) {
  std::shared_ptr<record_buffer> b;
  return lookup_buffer(session_id, buffer, b);
}

}  // namespace sessions

// ---- what the core delivers (core_port.hpp) ----

void core_port::on_core_events(const core_event* events, size_t count) {
  const session_routes* active = sessions::g_active.load();
  if (active == nullptr) return;
  for (size_t i = 0; i < count; ++i)
    route_event(*active, events[i]);
}

void core_port::on_sync_event(const core_event& event, bool enter) {
  const session_routes* active = sessions::g_active.load();
  if (active != nullptr && active->sync) route_sync_event(*active, event, enter);
}

void core_port::on_code_object_load(const core_code_object& object) {
  code_objects::loaded(object);
}
void core_port::on_code_object_unload(uint64_t id, uint64_t timestamp) {
  code_objects::unloaded(id, timestamp);
}
void core_port::on_kernel_symbol(const core_kernel_symbol& symbol) {
  code_objects::kernel_symbol(symbol);
}

}  // namespace rocprof::v2
