// Life cycle, versions, timestamps and the agent / queue / kernel / counter / operation
// queries of the v2 API.
#include <cstring>
#include <string>

#include "code_objects.hpp"
#include "core_port.hpp"
#include "guarded.hpp"
#include "sessions.hpp"

namespace {

using rocprof::v2::guarded;

namespace core_port = rocprof::v2::core_port;
using rocprof::v2::event_class;

// The text of an agent's info kind, or nullptr.
const char* agent_info(rocprofiler_agent_info_kind_t kind, rocprofiler_agent_id_t id,
                       rocprofiler_status_t& status) {
  for (const auto& agent : core_port::agents()) {
    if (agent.id != id.handle) continue;
    status = ROCPROFILER_STATUS_SUCCESS;
    if (kind == ROCPROFILER_AGENT_NAME) return agent.name;
    if (kind == ROCPROFILER_AGENT_TYPE) return agent.gpu ? "GPU" : "CPU";
    status = ROCPROFILER_STATUS_ERROR_AGENT_INFORMATION_MISSING;
    return nullptr;
  }
  status = ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
  return nullptr;
}

// The kernel's name for the kernel info queries (out: where the caller's answer goes).
rocprofiler_status_t kernel_info(rocprofiler_kernel_info_kind_t kind,
                                 rocprofiler_kernel_id_t kernel_id, const void* out,
                                 const char*& name) {
  if (out == nullptr || kind != ROCPROFILER_KERNEL_NAME)
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
  name = rocprof::v2::code_objects::kernel_name(kernel_id.handle);
  return name != nullptr ? ROCPROFILER_STATUS_SUCCESS : ROCPROFILER_STATUS_ERROR_KERNEL_NOT_FOUND;
}

// Async work (HIP_OPS / HSA_OPS) has three operations of its own (README: records).
constexpr const char* k_async_operations[] = {"KernelExecution", "MemoryCopy", "MemorySet"};

bool class_of(rocprofiler_tracer_activity_domain_t domain, event_class& what) {
  switch (domain) {
    case ACTIVITY_DOMAIN_HIP_API:
      what = event_class::runtime_api;
      return true;
    case ACTIVITY_DOMAIN_HSA_API:
      what = event_class::driver_api;
      return true;
    case ACTIVITY_DOMAIN_ROCTX:
      what = event_class::marker;
      return true;
    default:
      return false;
  }
}

bool is_async_domain(rocprofiler_tracer_activity_domain_t domain) {
  return domain == ACTIVITY_DOMAIN_HIP_OPS || domain == ACTIVITY_DOMAIN_HSA_OPS;
}

}  // namespace

extern "C" {

ROCPROFILER_API uint32_t rocprofiler_version_major(void) {
  return rocprof::c_boundary::guarded_or(__func__, 0u, [] { return 9u; });
}

ROCPROFILER_API uint32_t rocprofiler_version_minor(void) {
  return rocprof::c_boundary::guarded_or(__func__, 0u, [] { return 0u; });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_initialize(void) {
  return guarded(__func__, [] { return rocprof::v2::sessions::initialize(); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_finalize(void) {
  return guarded(__func__, [] { return rocprof::v2::sessions::finalize(); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_get_timestamp(rocprofiler_timestamp_t* timestamp) {
  return guarded(__func__, [&] {
    if (timestamp == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
    timestamp->value = core_port::timestamp();
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_agent_info_size(
    rocprofiler_agent_info_kind_t kind, rocprofiler_agent_id_t agent_id, size_t* data_size) {
  return guarded(__func__, [&] {
    if (data_size == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
    rocprofiler_status_t status = ROCPROFILER_STATUS_SUCCESS;
    const char* text = agent_info(kind, agent_id, status);
    if (text != nullptr) *data_size = std::strlen(text) + 1;
    return status;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_agent_info(
    rocprofiler_agent_info_kind_t kind, rocprofiler_agent_id_t descriptor, const char** name) {
  return guarded(__func__, [&] {
    if (name == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
    rocprofiler_status_t status = ROCPROFILER_STATUS_SUCCESS;
    const char* text = agent_info(kind, descriptor, status);
    if (text != nullptr) *name = text;
    return status;
  });
}

// CUDA streams have no queue size to report.
ROCPROFILER_API rocprofiler_status_t rocprofiler_query_queue_info_size(
    rocprofiler_queue_info_kind_t, rocprofiler_queue_id_t, size_t* data_size) {
  return guarded(__func__, [&] {
    return data_size == nullptr ? ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS
                                : ROCPROFILER_STATUS_ERROR_QUEUE_INFORMATION_MISSING;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_queue_info(rocprofiler_queue_info_kind_t,
                                                                  rocprofiler_queue_id_t,
                                                                  const char** name) {
  return guarded(__func__, [&] {
    return name == nullptr ? ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS
                           : ROCPROFILER_STATUS_ERROR_QUEUE_INFORMATION_MISSING;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_kernel_info_size(
    rocprofiler_kernel_info_kind_t kind, rocprofiler_kernel_id_t kernel_id, size_t* data_size) {
  return guarded(__func__, [&] {
    const char* name = nullptr;
    const rocprofiler_status_t status = kernel_info(kind, kernel_id, data_size, name);
    if (status == ROCPROFILER_STATUS_SUCCESS) *data_size = std::strlen(name) + 1;
    return status;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_kernel_info(
    rocprofiler_kernel_info_kind_t kind, rocprofiler_kernel_id_t kernel_id, const char** data) {
  return guarded(__func__, [&] {
    const char* name = nullptr;
    const rocprofiler_status_t status = kernel_info(kind, kernel_id, data, name);
    if (status == ROCPROFILER_STATUS_SUCCESS) *data = name;
    return status;
  });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_iterate_counters(rocprofiler_counters_info_callback_t) {
  return guarded(__func__, [] {
    return rocprof::v2::sessions::not_implemented(
        "rocprofiler_iterate_counters is not implemented yet (no counter collection through v2)");
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_counter_info_size(
    rocprofiler_session_id_t, rocprofiler_counter_info_kind_t, rocprofiler_counter_id_t, size_t*) {
  return guarded(__func__, [] {
    return rocprof::v2::sessions::not_implemented(
        "counter information is not implemented yet (no counter collection through v2)");
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_counter_info(rocprofiler_session_id_t,
                                                                    rocprofiler_counter_info_kind_t,
                                                                    rocprofiler_counter_id_t,
                                                                    const char**) {
  return guarded(__func__, [] {
    return rocprof::v2::sessions::not_implemented(
        "counter information is not implemented yet (no counter collection through v2)");
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_tracer_operation_name(
    rocprofiler_tracer_activity_domain_t domain, rocprofiler_tracer_operation_id_t operation_id,
    const char** name) {
  return guarded(__func__, [&] {
    if (name == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
    if (is_async_domain(domain)) {
      if (operation_id.id >= 3) return ROCPROFILER_STATUS_ERROR_INVALID_OPERATION_ID;
      *name = k_async_operations[operation_id.id];
      return ROCPROFILER_STATUS_SUCCESS;
    }
    event_class what{};
    if (!class_of(domain, what)) return ROCPROFILER_STATUS_ERROR_INVALID_DOMAIN_ID;
    const char* text = core_port::operation_name(what, operation_id.id);
    if (text == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_OPERATION_ID;
    *name = text;
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_tracer_operation_id(rocprofiler_tracer_activity_domain_t domain, const char* name,
                                rocprofiler_tracer_operation_id_t* operation_id) {
  return guarded(__func__, [&] {
    if (name == nullptr || operation_id == nullptr)
      return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
    if (is_async_domain(domain)) {
      for (uint32_t i = 0; i < 3; ++i)
        if (std::strcmp(k_async_operations[i], name) == 0) {
          operation_id->id = i;
          return ROCPROFILER_STATUS_SUCCESS;
        }
      return ROCPROFILER_STATUS_ERROR_INVALID_OPERATION_ID;
    }
    event_class what{};
    if (!class_of(domain, what)) return ROCPROFILER_STATUS_ERROR_INVALID_DOMAIN_ID;
    return core_port::operation_id(what, name, &operation_id->id)
               ? ROCPROFILER_STATUS_SUCCESS
               : ROCPROFILER_STATUS_ERROR_INVALID_OPERATION_ID;
  });
}

}  // extern "C"
