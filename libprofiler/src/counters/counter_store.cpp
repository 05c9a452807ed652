#include "counters/counter_store.hpp"

#include <algorithm>

#include "agents.hpp"
#include "backend_loader.hpp"
#include "backend_scan.hpp"
#include "rocprof/counters/expression.hpp"
#include "rocprof/counters/value.hpp"

namespace rocprof::core::counters {
namespace {

// The name the core gives definitions that come as text rather than from a file.
constexpr const char* k_extra_name = "extra counter definitions";

// <prefix>/lib/librocprofiler-sdk.so -> <prefix>, where share/rocprofiler-sdk/ lives (the
// build tree mirrors the installed layout).
std::string install_prefix() {
  const std::string lib = core_library_directory();
  const size_t slash = lib.rfind('/');
  return slash == std::string::npos ? std::string("..") : lib.substr(0, slash);
}

rc::base_counter to_base_counter(const rocprof_backend_counter_t& c) {
  rc::base_counter out;
  out.name = c.name != nullptr ? c.name : "";
  out.description = c.description != nullptr ? c.description : "";
  out.block = c.block != nullptr ? c.block : "";
  for (uint64_t d = 0; d < c.dimensions_count && c.dimension_names != nullptr; ++d) {
    rc::dimension dim;
    dim.name = c.dimension_names[d] != nullptr ? c.dimension_names[d] : "";
    dim.size = c.dimension_sizes != nullptr ? std::max<uint64_t>(c.dimension_sizes[d], 1) : 1;
    out.dimensions.push_back(std::move(dim));
  }
  out.is_constant = c.is_constant != 0;
  out.constant_value = c.constant_value;
  out.accumulates_per_cycle = c.accumulates_per_cycle != 0;
  return out;
}

void collect_counters(const rocprof_backend_counter_t* counters, uint64_t count, void* user) {
  auto* out = static_cast<std::vector<rc::base_counter>*>(user);
  for (uint64_t i = 0; i < count; ++i)
    if (counters[i].name != nullptr && counters[i].name[0] != '\0')
      out->push_back(to_base_counter(counters[i]));
}

}  // namespace

counter_store& counter_store::get() {
  static auto* store = new counter_store();  // never destroyed: configs may outlive exit
  return *store;
}

void counter_store::ensure_definitions_locked() {
  if (definitions_loaded_) return;
  definitions_loaded_ = true;
  const std::string path = rc::shipped_definitions_path(install_prefix());
  rc::load_result loaded = rc::load_definitions_file(path);
  if (!loaded.ok()) {
    const std::string message = "counter definitions " + path + " not usable (" +
                                loaded.errors.front() + "): only native counters are offered";
    warn_once("counter-definitions", message.c_str());
    return;
  }
  definitions_ = std::move(loaded.definitions);
}

rocprofiler_status_t counter_store::load_definitions(const std::string& yaml, rc::merge_mode mode,
                                                     std::vector<std::string>& problems) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (catalogue_built_) {
    problems.push_back("counter definitions must be loaded before the first counter query");
    return ROCPROFILER_STATUS_ERROR;
  }
  rc::load_result extra = rc::parse_definitions(yaml, k_extra_name);
  problems = extra.errors;
  if (!extra.ok()) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  if (mode == rc::merge_mode::append) ensure_definitions_locked();
  definitions_loaded_ = true;
  rc::merge_definitions(definitions_, extra.definitions, mode);
  return ROCPROFILER_STATUS_SUCCESS;
}

counter_store::agent_state* counter_store::state_locked(rocprofiler_agent_id_t id,
                                                        rocprofiler_status_t& status) {
  status = ROCPROFILER_STATUS_SUCCESS;
  if (auto it = agents_.find(id.handle); it != agents_.end()) return &it->second;
  const rocprofiler_agent_v0_t* a = find_agent(id);
  if (a == nullptr) {
    status = ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
    return nullptr;
  }
  if (a->type != ROCPROFILER_AGENT_TYPE_GPU) {
    status = ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED;
    return nullptr;
  }
  load_counter_backends();
  const std::vector<rocprof_backend_t> backends = counter_backends();
  if (backends.empty()) {
    status = ROCPROFILER_STATUS_ERROR_BACKEND_NOT_LOADED;
    return nullptr;
  }
  ensure_definitions_locked();
  status = ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED;
  for (const rocprof_backend_t& backend : backends) {
    std::vector<rc::base_counter> base;
    const char* architecture = nullptr;
    const rocprofiler_status_t listed =
        backend.list_counters(backend.backend_data, id, &architecture, collect_counters, &base);
    if (listed == ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND) continue;
    if (listed != ROCPROFILER_STATUS_SUCCESS || architecture == nullptr) {
      status = listed != ROCPROFILER_STATUS_SUCCESS
                   ? listed
                   : ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED;
      return nullptr;
    }
    agent_state& state = agents_[id.handle];
    state.base = std::move(base);
    state.definitions = definitions_;
    status = build_locked(id, state, backend, architecture);
    if (status != ROCPROFILER_STATUS_SUCCESS) {
      agents_.erase(id.handle);
      return nullptr;
    }
    return &state;
  }
  return nullptr;
}

rocprofiler_status_t counter_store::build_locked(rocprofiler_agent_id_t id, agent_state& state,
                                                 const rocprof_backend_t& backend,
                                                 const std::string& architecture) {
  auto built = std::make_shared<agent_counters>();
  built->agent = id;
  built->backend = backend;
  built->architecture = architecture;
  built->catalogue = std::make_shared<const rc::agent_catalogue>(architecture, state.base,
                                                                 state.definitions, ids_);
  if (built->catalogue->counters().empty())
    return ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED;
  catalogue_built_ = true;
  state.current = built;
  for (const rc::counter_info& info : built->catalogue->counters())
    by_id_[info.id] = counter_ref{built, &info};
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t counter_store::agent(rocprofiler_agent_id_t id,
                                          std::shared_ptr<const agent_counters>& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  rocprofiler_status_t status = ROCPROFILER_STATUS_SUCCESS;
  agent_state* state = state_locked(id, status);
  if (state == nullptr) return status;
  out = state->current;
  return ROCPROFILER_STATUS_SUCCESS;
}

bool counter_store::find(uint64_t counter_id, counter_ref& out) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = by_id_.find(counter_id);
  if (it == by_id_.end()) return false;
  out = it->second;
  return true;
}

rocprofiler_status_t counter_store::add_derived(rocprofiler_agent_id_t agent,
                                                const std::string& name,
                                                const std::string& expression,
                                                const std::string& description,
                                                uint64_t& counter_id, std::string& why) {
  std::lock_guard<std::mutex> lock(mutex_);
  rocprofiler_status_t status = ROCPROFILER_STATUS_SUCCESS;
  agent_state* state = state_locked(agent, status);
  if (state == nullptr) return status;
  const agent_counters& now = *state->current;
  if (name.empty() || now.catalogue->find(name) != nullptr ||
      state->definitions.find(name) != nullptr) {
    why = "the name '" + name + "' is empty or already taken";
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  }
  rc::result<rc::expression> parsed = rc::parse_expression(expression);
  if (!parsed) {
    why = "expression error at offset " + std::to_string(parsed.failure().offset) + ": " +
          parsed.failure().message;
    return ROCPROFILER_STATUS_ERROR_AST_GENERATION_FAILED;
  }
  rc::counter_entry entry;
  entry.name = name;
  entry.description = description;
  rc::counter_definition def;
  def.architectures = {now.architecture};
  def.expression = expression;
  def.parsed = std::make_shared<const rc::expression>(std::move(parsed.value()));
  def.location.file = "rocprofiler_create_counter";
  entry.definitions.push_back(std::move(def));
  rc::definition_set previous = state->definitions;
  state->definitions.add(std::move(entry));
  const rocprof_backend_t backend = now.backend;
  const std::string architecture = now.architecture;
  const std::shared_ptr<const agent_counters> kept = state->current;
  status = build_locked(agent, *state, backend, architecture);
  const rc::counter_info* info =
      status == ROCPROFILER_STATUS_SUCCESS ? state->current->catalogue->find(name) : nullptr;
  if (info == nullptr) {
    why = status == ROCPROFILER_STATUS_SUCCESS ? state->current->catalogue->why_unavailable(name)
                                               : "the catalogue could not be rebuilt";
    state->definitions = std::move(previous);
    state->current = kept;
    return ROCPROFILER_STATUS_ERROR_AST_GENERATION_FAILED;
  }
  counter_id = info->id;
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t counter_store::add_native(rocprofiler_agent_id_t agent,
                                               const std::string& name, uint64_t& counter_id,
                                               std::string& why) {
  std::lock_guard<std::mutex> lock(mutex_);
  rocprofiler_status_t status = ROCPROFILER_STATUS_SUCCESS;
  agent_state* state = state_locked(agent, status);
  if (state == nullptr) return status;
  if (const rc::counter_info* known = state->current->catalogue->find(name)) {
    counter_id = known->id;
    return ROCPROFILER_STATUS_SUCCESS;
  }
  const rocprof_backend_t backend = state->current->backend;
  if (backend.describe_counter == nullptr) {
    why = state->current->catalogue->unavailable_message(name);
    return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
  }
  std::vector<rc::base_counter> described;
  const char* reason = nullptr;
  status = backend.describe_counter(backend.backend_data, agent, name.c_str(), collect_counters,
                                    &described, &reason);
  if (status != ROCPROFILER_STATUS_SUCCESS || described.size() != 1 ||
      described.front().name != name) {
    why = reason != nullptr ? reason : state->current->catalogue->unavailable_message(name);
    return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
  }
  state->base.push_back(std::move(described.front()));
  const std::string architecture = state->current->architecture;
  status = build_locked(agent, *state, backend, architecture);
  if (status != ROCPROFILER_STATUS_SUCCESS) return status;
  counter_id = state->current->catalogue->find(name)->id;
  return ROCPROFILER_STATUS_SUCCESS;
}

uint64_t counter_store::dimension_id(const std::string& name) {
  const auto& known = rc::rocprofiler_dimension_names();
  for (size_t i = 0; i < known.size(); ++i)
    if (known[i] == name) return i + 1;
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = dimension_ids_.find(name);
  if (it != dimension_ids_.end()) return it->second;
  const uint64_t id = known.size() + 1 + dimension_ids_.size();
  dimension_ids_.emplace(name, id);
  return id;
}

}  // namespace rocprof::core::counters
