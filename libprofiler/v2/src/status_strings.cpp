// rocprofiler_error_str: one text per status code (status_strings_test checks every code).
#include "guarded.hpp"

namespace {

const char* status_text(int status) {
  switch (status) {
    case ROCPROFILER_STATUS_SUCCESS:
      return "success";
    case ROCPROFILER_STATUS_ERROR:
      return "error";
    case ROCPROFILER_STATUS_ERROR_ALREADY_INITIALIZED:
      return "rocprofiler is already initialized";
    case ROCPROFILER_STATUS_ERROR_NOT_INITIALIZED:
      return "rocprofiler is not initialized";
    case ROCPROFILER_STATUS_ERROR_SESSION_MISSING_BUFFER:
      return "a filter of the session has no buffer";
    case ROCPROFILER_STATUS_ERROR_TIMESTAMP_NOT_APPLICABLE:
      return "timestamps do not apply here";
    case ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND:
      return "no such agent";
    case ROCPROFILER_STATUS_ERROR_AGENT_INFORMATION_MISSING:
      return "the agent lacks that information";
    case ROCPROFILER_STATUS_ERROR_QUEUE_NOT_FOUND:
      return "no such queue";
    case ROCPROFILER_STATUS_ERROR_QUEUE_INFORMATION_MISSING:
      return "the queue lacks that information";
    case ROCPROFILER_STATUS_ERROR_KERNEL_NOT_FOUND:
      return "no such kernel";
    case ROCPROFILER_STATUS_ERROR_KERNEL_INFORMATION_MISSING:
      return "the kernel lacks that information";
    case ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND:
      return "no such counter";
    case ROCPROFILER_STATUS_ERROR_COUNTER_INFORMATION_MISSING:
      return "the counter lacks that information";
    case ROCPROFILER_STATUS_ERROR_TRACER_API_DATA_NOT_FOUND:
      return "no API data for this record";
    case ROCPROFILER_STATUS_ERROR_TRACER_API_DATA_INFORMATION_MISSING:
      return "the API data lacks that information";
    case ROCPROFILER_STATUS_ERROR_INCORRECT_DOMAIN:
      return "wrong tracing domain";
    case ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND:
      return "no such session";
    case ROCPROFILER_STATUS_ERROR_CORRUPTED_SESSION_BUFFER:
      return "the session's buffer is corrupted";
    case ROCPROFILER_STATUS_ERROR_RECORD_CORRUPTED:
      return "the record is corrupted (unknown kind)";
    case ROCPROFILER_STATUS_ERROR_INCORRECT_REPLAY_MODE:
      return "unsupported replay mode";
    case ROCPROFILER_STATUS_ERROR_SESSION_MISSING_FILTER:
      return "the session has no filter";
    case ROCPROFILER_STATUS_ERROR_INCORRECT_SIZE:
      return "the size is too small";
    case ROCPROFILER_STATUS_ERROR_INCORRECT_FLUSH_INTERVAL:
      return "the flush interval must be above 0 ms";
    case ROCPROFILER_STATUS_ERROR_SESSION_FILTER_DATA_MISMATCH:
      return "the filter data does not fit the filter kind";
    case ROCPROFILER_STATUS_ERROR_FILTER_DATA_CORRUPTED:
      return "the filter data is missing or invalid";
    case ROCPROFILER_STATUS_ERROR_CORRUPTED_LABEL_DATA:
      return "the label data is corrupted";
    case ROCPROFILER_STATUS_ERROR_RANGE_STACK_IS_EMPTY:
      return "the range stack is empty";
    case ROCPROFILER_STATUS_ERROR_PASS_NOT_STARTED:
      return "the pass has not started";
    case ROCPROFILER_STATUS_ERROR_HAS_ACTIVE_SESSION:
      return "a session is already active";
    case ROCPROFILER_STATUS_ERROR_SESSION_NOT_ACTIVE:
      return "the session is not active";
    case ROCPROFILER_STATUS_ERROR_FILTER_NOT_FOUND:
      return "no such filter in the session";
    case ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND:
      return "no such buffer in the session";
    case ROCPROFILER_STATUS_ERROR_FILTER_NOT_SUPPORTED:
      return "this filter is not supported";
    case ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS:
      return "invalid arguments";
    case ROCPROFILER_STATUS_ERROR_INVALID_OPERATION_ID:
      return "no such operation in the domain";
    case ROCPROFILER_STATUS_ERROR_INVALID_DOMAIN_ID:
      return "no such tracing domain";
    case ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED:
      return "not implemented (on this profiler or without AMD GPUs)";
    case ROCPROFILER_STATUS_ERROR_MISMATCHED_EXTERNAL_CORRELATION_ID:
      return "mismatched external correlation id";
    default:
      return nullptr;
  }
}

}  // namespace

extern "C" {

ROCPROFILER_API const char* rocprofiler_error_str(rocprofiler_status_t status) {
  return rocprof::c_boundary::guarded_or(__func__, "unknown rocprofiler status", [&] {
    const char* text = status_text(static_cast<int>(status));
    return text != nullptr ? text : "unknown rocprofiler status";
  });
}

}  // extern "C"
