#include "filters.hpp"

#include "sessions.hpp"

namespace rocprof::v2::sessions {
namespace {

// A filter property's list of names, copied (the property must fit the filter's kind).
rocprofiler_status_t read_names(bool fits_kind, const char* const* names, uint64_t count,
                                std::vector<std::string>& out) {
  if (!fits_kind) return ROCPROFILER_STATUS_ERROR_SESSION_FILTER_DATA_MISMATCH;
  if (count != 0 && names == nullptr) return ROCPROFILER_STATUS_ERROR_FILTER_DATA_CORRUPTED;
  for (uint64_t i = 0; i < count; ++i)
    if (names[i] != nullptr) out.emplace_back(names[i]);
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // namespace

rocprofiler_status_t read_filter(rocprofiler_filter_kind_t kind, rocprofiler_filter_data_t data,
                                 uint64_t count, const rocprofiler_filter_property_t& property,
                                 filter_def& f) {
  f.kind = kind;
  switch (kind) {
    case ROCPROFILER_API_TRACE:
      if (count == 0 || data.trace_apis == nullptr)
        return ROCPROFILER_STATUS_ERROR_FILTER_DATA_CORRUPTED;
      for (uint64_t i = 0; i < count; ++i) {
        const rocprofiler_tracer_activity_domain_t d = data.trace_apis[i];
        if (d < ACTIVITY_DOMAIN_HSA_API || d >= ACTIVITY_DOMAIN_NUMBER)
          return ROCPROFILER_STATUS_ERROR_INVALID_DOMAIN_ID;
        f.domains |= 1u << d;
      }
      break;
    case ROCPROFILER_DISPATCH_TIMESTAMPS_COLLECTION:
      break;
    case ROCPROFILER_COUNTERS_COLLECTION:
      return not_implemented(
          "per-kernel counters (ROCPROFILER_COUNTERS_COLLECTION) are not implemented yet: the "
          "core's dispatch counting service they would run on is not built");
    case ROCPROFILER_PC_SAMPLING_COLLECTION:
      return not_implemented("PC sampling (ROCPROFILER_PC_SAMPLING_COLLECTION) needs AMD GPUs");
    case ROCPROFILER_ATT_TRACE_COLLECTION:
      return not_implemented("thread trace (ROCPROFILER_ATT_TRACE_COLLECTION) needs AMD GPUs");
    case ROCPROFILER_SPM_COLLECTION:
      return not_implemented("SPM (ROCPROFILER_SPM_COLLECTION) needs AMD GPUs");
    case ROCPROFILER_COUNTERS_SAMPLER:
      return not_implemented(
          "PCIe/XGMI counter sampling (ROCPROFILER_COUNTERS_SAMPLER) needs AMD GPUs");
    default:
      return ROCPROFILER_STATUS_ERROR_FILTER_NOT_SUPPORTED;
  }
  const uint64_t n = property.data_count;
  switch (static_cast<int>(property.kind)) {
    case 0:  // a zero-initialised property: no restriction
      break;
    case ROCPROFILER_FILTER_HIP_TRACER_API_FUNCTIONS:
    case ROCPROFILER_FILTER_HSA_TRACER_API_FUNCTIONS:
      return read_names(kind == ROCPROFILER_API_TRACE, property.hip_functions_names, n,
                        f.functions);
    case ROCPROFILER_FILTER_KERNEL_NAMES:
      return read_names(kind == ROCPROFILER_DISPATCH_TIMESTAMPS_COLLECTION, property.name_regex, n,
                        f.kernel_patterns);
    default:
      return not_implemented(
          "filter properties GPU_NAME, RANGE and DISPATCH_IDS are not implemented");
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

// std::regex throws on a bad pattern: that is the caller's data, not our fault.
rocprofiler_status_t compile_routes(
    const std::map<uint64_t, filter_def>& filters,
    const std::map<uint64_t, std::shared_ptr<record_buffer>>& buffers, rocprofiler_session_id_t id,
    session_routes& out) {
  out.session = id;
  for (const auto& entry : filters) {
    const filter_def& f = entry.second;
    route r;
    r.kind = f.kind;
    r.domains = f.domains;
    r.functions.insert(f.functions.begin(), f.functions.end());
    try {
      for (const std::string& p : f.kernel_patterns)
        r.kernel_names.emplace_back(p);
    } catch (const std::regex_error&) {
      return ROCPROFILER_STATUS_ERROR_FILTER_DATA_CORRUPTED;
    }
    if (f.buffer != 0) {
      auto b = buffers.find(f.buffer);
      if (b == buffers.end()) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
      r.buffer = b->second;
    } else if (f.sync == nullptr) {
      return ROCPROFILER_STATUS_ERROR_SESSION_MISSING_BUFFER;
    }
    r.sync = f.sync;
    out.sync = out.sync || f.sync != nullptr;
    out.routes.push_back(std::move(r));
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // namespace rocprof::v2::sessions
