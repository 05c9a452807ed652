// rocprofiler_push/pop_external_correlation_id: a stack on the calling thread's state, so
// that records read it without a lock.
#include "rocprofiler-sdk/external_correlation.h"
#include "context.hpp"
#include "guarded.hpp"
#include "thread_state.hpp"

extern "C" {

using rocprof::core::guarded;

ROCPROFILER_API rocprofiler_status_t rocprofiler_push_external_correlation_id(
    rocprofiler_context_id_t context, rocprofiler_thread_id_t thread_id,
    rocprofiler_user_data_t external_correlation_id) {
  using namespace rocprof::core;
  return guarded(__func__, [&] {
    if (find_context(context) == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    thread_state* st = current_thread();
    if (st == nullptr || st->tid != thread_id) return ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND;
    st->externals.push_back(
        external_entry{static_cast<uint32_t>(context.handle - 1), external_correlation_id});
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_pop_external_correlation_id(
    rocprofiler_context_id_t context, rocprofiler_thread_id_t thread_id,
    rocprofiler_user_data_t* external_correlation_id) {
  using namespace rocprof::core;
  return guarded(__func__, [&] {
    if (find_context(context) == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    thread_state* st = current_thread();
    if (st == nullptr || st->tid != thread_id) return ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND;
    const auto index = static_cast<uint32_t>(context.handle - 1);
    for (auto it = st->externals.rbegin(); it != st->externals.rend(); ++it) {
      if (it->context_index != index) continue;
      if (external_correlation_id != nullptr) *external_correlation_id = it->value;
      st->externals.erase(std::next(it).base());
      return ROCPROFILER_STATUS_SUCCESS;
    }
    return ROCPROFILER_STATUS_ERROR;
  });
}

}  // extern "C"
