#include "api_exclusion.hpp"

#include <string_view>

#include "rocprof/common/cuda_api_names.hpp"

namespace rocprof::tool {
namespace {

struct listing {
  const std::vector<std::string>* excluded = nullptr;
  api_operation_choice* choice = nullptr;
  size_t listed = 0;
};

int take_operation(rocprofiler_buffer_tracing_kind_t kind, rocprofiler_tracing_operation_t op,
                   void* data) {
  auto& l = *static_cast<listing*>(data);
  const char* name = nullptr;
  uint64_t length = 0;
  if (rocprofiler_query_buffer_tracing_kind_operation_name(kind, op, &name, &length) !=
          ROCPROFILER_STATUS_SUCCESS ||
      name == nullptr)
    return 0;
  ++l.listed;
  const std::string_view traced{name, length};
  bool keep = true;
  for (size_t i = 0; i < l.excluded->size(); ++i) {
    if (common::cuda_api_name_matches(traced, (*l.excluded)[i])) {
      l.choice->matched[i] = true;
      keep = false;
    }
  }
  if (keep) l.choice->operations.push_back(op);
  return 0;
}

}  // namespace

bool is_cuda_api_kind(rocprofiler_buffer_tracing_kind_t kind) {
  return kind == ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API ||
         kind == ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API;
}

api_operation_choice operations_without(rocprofiler_buffer_tracing_kind_t kind,
                                        const std::vector<std::string>& excluded) {
  api_operation_choice choice;
  choice.matched.assign(excluded.size(), false);
  if (excluded.empty()) return choice;
  listing l{&excluded, &choice};
  rocprofiler_iterate_buffer_tracing_kind_operations(kind, take_operation, &l);
  choice.listed = l.listed != 0;
  // Nothing listed (no backend) or nothing excluded: the whole kind, as without the option.
  if (l.listed == 0 || choice.operations.size() == l.listed) choice.operations.clear();
  return choice;
}

}  // namespace rocprof::tool
