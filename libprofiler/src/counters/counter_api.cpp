// The C entry points of counters.h, deprecated/counters.h and experimental/counters.h: what
// counters an agent offers, what each is, instance id decoding, counters added at run time.
#include <cstdio>
#include <string>
#include <vector>

#include "counters/counter_info_cache.hpp"
#include "counters/counter_store.hpp"
#include "counters/instance_id.hpp"
#include "guarded.hpp"
#include "registration.hpp"
#include "rocprofiler-sdk/counters.h"
#include "rocprofiler-sdk/experimental/counters.h"

using namespace rocprof::core;
using namespace rocprof::core::counters;

extern "C" {

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_record_counter_id(
    rocprofiler_counter_instance_id_t id, rocprofiler_counter_id_t* counter_id) {
  return guarded(__func__, [&] {
    counter_id->handle = counter_of_instance(id);
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_record_dimension_position(
    rocprofiler_counter_instance_id_t id, rocprofiler_counter_dimension_id_t dim, size_t* pos) {
  return guarded(__func__, [&] {
    *pos = 0;
    const uint64_t flat = flat_position_of(id);
    if (dim == 0) {
      *pos = static_cast<size_t>(flat);
      return ROCPROFILER_STATUS_SUCCESS;
    }
    const counter_description* d = describe(counter_of_instance(id));
    if (d == nullptr) return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
    const std::vector<uint64_t>& ids = dimension_ids(*d);
    for (size_t i = 0; i < ids.size(); ++i)
      if (ids[i] == dim) *pos = position_in_dimension(flat, dimension_sizes(*d), i);
    return ROCPROFILER_STATUS_SUCCESS;  // a dimension the counter lacks: position 0
  });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_query_counter_info(rocprofiler_counter_id_t counter_id,
                               rocprofiler_counter_info_version_id_t version, void* info) {
  return guarded(__func__, [&] {
    if (version != ROCPROFILER_COUNTER_INFO_VERSION_0 &&
        version != ROCPROFILER_COUNTER_INFO_VERSION_1)
      return ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI;
    const counter_description* d = describe(counter_id.handle);
    if (d == nullptr) return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
    if (version == ROCPROFILER_COUNTER_INFO_VERSION_0)
      fill_v0(*d, *static_cast<rocprofiler_counter_info_v0_t*>(info));
    else
      fill_v1(*d, *static_cast<rocprofiler_counter_info_v1_t*>(info));
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_agent_supported_counters(
    rocprofiler_agent_id_t agent_id, rocprofiler_available_counters_cb_t cb, void* user_data) {
  return guarded(__func__, [&] {
    ensure_initialized();
    std::shared_ptr<const agent_counters> agent;
    const rocprofiler_status_t status = counter_store::get().agent(agent_id, agent);
    if (status != ROCPROFILER_STATUS_SUCCESS) return status;
    std::vector<rocprofiler_counter_id_t> ids;
    ids.reserve(agent->catalogue->counters().size());
    for (const rc::counter_info& info : agent->catalogue->counters())
      ids.push_back(rocprofiler_counter_id_t{info.id});
    cb(agent_id, ids.data(), ids.size(), user_data);
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_find_counter(
    rocprofiler_agent_id_t agent, const char* name, rocprofiler_counter_id_t* counter_id) {
  return guarded(__func__, [&] {
    ensure_initialized();
    std::string why;
    return counter_store::get().add_native(agent, name, counter_id->handle, why);
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_create_counter(
    const char* name, size_t name_len, const char* expr, size_t expr_len, const char* description,
    size_t description_len, rocprofiler_agent_id_t agent, rocprofiler_counter_id_t* counter_id) {
  return guarded(__func__, [&] {
    ensure_initialized();
    std::string why;
    const std::string text =
        description != nullptr ? std::string(description, description_len) : std::string();
    const rocprofiler_status_t status = counter_store::get().add_derived(
        agent, std::string(name, name_len), std::string(expr, expr_len), text, counter_id->handle,
        why);
    if (status != ROCPROFILER_STATUS_SUCCESS && !why.empty())
      std::fprintf(stderr, "rocprofiler: rocprofiler_create_counter '%.*s': %s\n",
                   static_cast<int>(name_len), name, why.c_str());
    return status;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_counter_dimensions(
    rocprofiler_counter_id_t id, rocprofiler_available_dimensions_cb_t info_cb, void* user_data) {
  return guarded(__func__, [&] {
    if (info_cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    const counter_description* d = describe(id.handle);
    if (d == nullptr) return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
    size_t count = 0;
    const rocprofiler_counter_record_dimension_info_t* dims = dimensions_of(*d, count);
    info_cb(id, dims, count, user_data);
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_counter_instance_count(
    rocprofiler_agent_id_t, rocprofiler_counter_id_t counter_id, size_t* instance_count) {
  return guarded(__func__, [&] {
    *instance_count = 0;
    const counter_description* d = describe(counter_id.handle);
    if (d == nullptr) return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
    size_t n = 1;
    for (uint64_t size : dimension_sizes(*d))
      n *= static_cast<size_t>(size);
    *instance_count = n;
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_load_counter_definition(
    const char* yaml, size_t size, rocprofiler_counter_flag_t flags) {
  return guarded(__func__, [&] {
    if (yaml == nullptr && size != 0) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    if (flags != ROCPROFILER_COUNTER_FLAG_NONE &&
        flags != ROCPROFILER_COUNTER_FLAG_APPEND_DEFINITION)
      return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    std::vector<std::string> problems;
    const rocprofiler_status_t status = counter_store::get().load_definitions(
        yaml != nullptr ? std::string(yaml, size) : std::string(),
        flags == ROCPROFILER_COUNTER_FLAG_APPEND_DEFINITION ? rc::merge_mode::append
                                                            : rc::merge_mode::replace,
        problems);
    for (const std::string& p : problems)
      std::fprintf(stderr, "rocprofiler: %s\n", p.c_str());
    return status;
  });
}

}  // extern "C"
