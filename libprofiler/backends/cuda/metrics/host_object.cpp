#include "host_object.hpp"

#include <utility>

namespace rocprof::cuda {

host_status host_status::failure(profiler_host_api& api, CUptiResult r, const std::string& what) {
  return {r, what + ": " + api.result_string(r) + " (" + std::to_string(static_cast<int>(r)) + ")"};
}

host_status host_status::refused(std::string why) {
  return {CUPTI_ERROR_INVALID_PARAMETER, std::move(why)};
}

std::vector<const char*> c_names(const std::vector<std::string>& names) {
  std::vector<const char*> out;
  out.reserve(names.size());
  for (const std::string& n : names)
    out.push_back(n.c_str());
  return out;
}

const char* profiler_type_name(CUpti_ProfilerType type) {
  switch (type) {
    case CUPTI_PROFILER_TYPE_RANGE_PROFILER:
      return "range_profiler";
    case CUPTI_PROFILER_TYPE_PM_SAMPLING:
      return "pm_sampling";
    default:
      return "invalid";
  }
}

host_object& host_object::operator=(host_object&& other) noexcept {
  if (this != &other) {
    reset();
    swap(other);
  }
  return *this;
}

void host_object::swap(host_object& other) noexcept {
  std::swap(api_, other.api_);
  std::swap(object_, other.object_);
}

void host_object::reset() {
  if (object_ == nullptr) return;
  auto p = ROCPROF_HOST_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
  p.pHostObject = object_;
  ROCPROF_CUPTI_CALL(*api_, api_->deinitialize(&p));
  object_ = nullptr;
}

host_status host_object::open(profiler_host_api& api, const host_target& target, host_object& out) {
  out.reset();
  if (target.type != CUPTI_PROFILER_TYPE_RANGE_PROFILER &&
      target.type != CUPTI_PROFILER_TYPE_PM_SAMPLING)
    return host_status::refused("profiler type " + std::to_string(static_cast<int>(target.type)) +
                                " is neither the range profiler (0) nor PM sampling (1)");
  auto p = ROCPROF_HOST_PARAMS(CUpti_Profiler_Host_Initialize_Params);
  p.profilerType = target.type;
  p.pChipName = target.chip.c_str();
  p.pCounterAvailabilityImage =
      target.counter_availability.empty() ? nullptr : target.counter_availability.data();
  const CUptiResult r = api.initialize(&p);
  if (r != CUPTI_SUCCESS || p.pHostObject == nullptr)
    return host_status::failure(api, r == CUPTI_SUCCESS ? CUPTI_ERROR_UNKNOWN : r,
                                std::string{"profiler host object for chip '"} + target.chip +
                                    "' (" + profiler_type_name(target.type) + ")");
  out.api_ = &api;
  out.object_ = p.pHostObject;
  return {};
}

}  // namespace rocprof::cuda
