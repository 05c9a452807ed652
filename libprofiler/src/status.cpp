// Status names and strings, version, timestamp, thread id.
#include "clock.hpp"
#include "guarded.hpp"
#include "rocprofiler-sdk/rocprofiler.h"
#include "thread_state.hpp"

namespace rocprof::core {
namespace {

struct status_text {
  rocprofiler_status_t status;
  const char* name;
  const char* text;
};

#define ROCPROF_STATUS(code, text) \
  { ROCPROFILER_STATUS_##code, "ROCPROFILER_STATUS_" #code, text }
constexpr status_text status_table[] = {
    ROCPROF_STATUS(SUCCESS, "Success"),
    ROCPROF_STATUS(ERROR, "General error"),
    ROCPROF_STATUS(ERROR_CONTEXT_NOT_FOUND, "No context with this id"),
    ROCPROF_STATUS(ERROR_BUFFER_NOT_FOUND, "No buffer with this id"),
    ROCPROF_STATUS(ERROR_KIND_NOT_FOUND, "Unknown tracing kind"),
    ROCPROF_STATUS(ERROR_OPERATION_NOT_FOUND, "Unknown operation for this kind"),
    ROCPROF_STATUS(ERROR_THREAD_NOT_FOUND, "No such thread"),
    ROCPROF_STATUS(ERROR_AGENT_NOT_FOUND, "No agent with this id"),
    ROCPROF_STATUS(ERROR_COUNTER_NOT_FOUND, "No counter with this id"),
    ROCPROF_STATUS(ERROR_CONTEXT_ERROR, "The context is in an error state or busy"),
    ROCPROF_STATUS(ERROR_CONTEXT_INVALID, "The context is invalid (its tool failed to initialize)"),
    ROCPROF_STATUS(ERROR_CONTEXT_NOT_STARTED, "The context has not been started"),
    ROCPROF_STATUS(ERROR_CONTEXT_CONFLICT, "The context conflicts with another active context"),
    ROCPROF_STATUS(ERROR_CONTEXT_ID_NOT_ZERO, "The context id passed for creation was not zero"),
    ROCPROF_STATUS(ERROR_BUFFER_BUSY, "The buffer is busy (e.g. flushed from its own callback)"),
    ROCPROF_STATUS(ERROR_SERVICE_ALREADY_CONFIGURED,
                   "This service is already configured in this context"),
    ROCPROF_STATUS(ERROR_CONFIGURATION_LOCKED,
                   "Configuration is only allowed during tool initialization"),
    ROCPROF_STATUS(ERROR_NOT_IMPLEMENTED, "Not implemented"),
    ROCPROF_STATUS(ERROR_INCOMPATIBLE_ABI, "Incompatible ABI or structure version"),
    ROCPROF_STATUS(ERROR_INVALID_ARGUMENT, "Invalid argument"),
    ROCPROF_STATUS(ERROR_METRIC_NOT_VALID_FOR_AGENT, "The metric is not valid for this agent"),
    ROCPROF_STATUS(ERROR_FINALIZED, "The profiler has been finalized"),
    ROCPROF_STATUS(ERROR_HSA_NOT_LOADED, "The HSA runtime is not loaded"),
    ROCPROF_STATUS(ERROR_DIM_NOT_FOUND, "No such counter dimension"),
    ROCPROF_STATUS(ERROR_PROFILE_COUNTER_NOT_FOUND, "A counter of the profile was not found"),
    ROCPROF_STATUS(ERROR_AST_GENERATION_FAILED, "The counter expression could not be parsed"),
    ROCPROF_STATUS(ERROR_AST_NOT_FOUND, "No expression for this counter"),
    ROCPROF_STATUS(ERROR_AQL_NO_EVENT_COORD, "No event coordinate for this counter"),
    ROCPROF_STATUS(ERROR_INCOMPATIBLE_KERNEL, "The kernel is incompatible with the request"),
    ROCPROF_STATUS(ERROR_OUT_OF_RESOURCES, "Out of resources (memory or fixed limits)"),
    ROCPROF_STATUS(ERROR_PROFILE_NOT_FOUND, "No such counter profile"),
    ROCPROF_STATUS(ERROR_AGENT_DISPATCH_CONFLICT,
                   "Agent counting and dispatch counting cannot share a context"),
    ROCPROF_STATUS(INTERNAL_NO_AGENT_CONTEXT, "Internal: no agent context"),
    ROCPROF_STATUS(ERROR_SAMPLE_RATE_EXCEEDED, "The requested sample rate is too high"),
    ROCPROF_STATUS(ERROR_NO_PROFILE_QUEUE, "No profiling queue is available"),
    ROCPROF_STATUS(ERROR_NO_HARDWARE_COUNTERS, "No hardware counters are available"),
    ROCPROF_STATUS(ERROR_AGENT_MISMATCH, "The agent does not match"),
    ROCPROF_STATUS(ERROR_NOT_AVAILABLE, "The service is not available"),
    ROCPROF_STATUS(ERROR_EXCEEDS_HW_LIMIT, "The request exceeds a hardware limit"),
    ROCPROF_STATUS(ERROR_AGENT_ARCH_NOT_SUPPORTED, "The agent architecture is not supported"),
    ROCPROF_STATUS(ERROR_PERMISSION_DENIED, "Permission denied"),
    ROCPROF_STATUS(ERROR_BACKEND_NOT_LOADED, "The backend for this service is not loaded"),
};
#undef ROCPROF_STATUS

constexpr bool status_table_in_order() {
  for (size_t i = 0; i < sizeof(status_table) / sizeof(status_table[0]); ++i)
    if (static_cast<size_t>(status_table[i].status) != i) return false;
  return true;
}
static_assert(sizeof(status_table) / sizeof(status_table[0]) == ROCPROFILER_STATUS_LAST,
              "one entry per status code");
static_assert(status_table_in_order(), "status_table must follow the enum order");

// Takes the code as an integer: callers may pass any value, and an out-of-range enum must not
// be read back from memory (UBSan's enum check) inside the guarded body.
const status_text* find_status(size_t code) {
  return code < ROCPROFILER_STATUS_LAST ? &status_table[code] : nullptr;
}

}  // namespace
}  // namespace rocprof::core

extern "C" {

using rocprof::core::guarded;

ROCPROFILER_API const char* rocprofiler_get_status_name(rocprofiler_status_t status) {
  constexpr const char* unknown = "ROCPROFILER_STATUS_UNKNOWN";
  const auto code = static_cast<size_t>(status);
  return rocprof::core::guarded_or(__func__, unknown, [code] {
    const auto* s = rocprof::core::find_status(code);
    return s != nullptr ? s->name : unknown;
  });
}

ROCPROFILER_API const char* rocprofiler_get_status_string(rocprofiler_status_t status) {
  constexpr const char* unknown = "Unknown status code";
  const auto code = static_cast<size_t>(status);
  return rocprof::core::guarded_or(__func__, unknown, [code] {
    const auto* s = rocprof::core::find_status(code);
    return s != nullptr ? s->text : unknown;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_get_version(uint32_t* major, uint32_t* minor,
                                                             uint32_t* patch) {
  return guarded(__func__, [&] {
    if (major != nullptr) *major = ROCPROFILER_VERSION_MAJOR;
    if (minor != nullptr) *minor = ROCPROFILER_VERSION_MINOR;
    if (patch != nullptr) *patch = ROCPROFILER_VERSION_PATCH;
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t
rocprofiler_get_version_triplet(rocprofiler_version_triplet_t* info) {
  return guarded(__func__, [&] {
    *info = rocprofiler_version_triplet_t{ROCPROFILER_VERSION_MAJOR, ROCPROFILER_VERSION_MINOR,
                                          ROCPROFILER_VERSION_PATCH};
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_get_timestamp(rocprofiler_timestamp_t* ts) {
  return guarded(__func__, [&] {
    *ts = rocprof::core::now_ns();
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_get_thread_id(rocprofiler_thread_id_t* tid) {
  return guarded(__func__, [&] {
    rocprof::core::thread_state* st = rocprof::core::current_thread();
    if (st == nullptr) return ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND;
    *tid = st->tid;
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

}  // extern "C"
