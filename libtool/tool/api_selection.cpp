#include "api_selection.hpp"

#include <string_view>

#include "rocprof/common/cuda_api_names.hpp"

namespace rocprof::tool {
namespace {

struct listing {
  const std::vector<std::string>& include;
  const std::vector<std::string>& exclude;
  api_operation_choice& choice;
  size_t count = 0;
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
  ++l.count;
  const std::string_view traced{name, length};
  const bool in = l.include.empty() || common::cuda_api_named(traced, l.include);
  const bool out = common::cuda_api_named(traced, l.exclude);
  if (in && !out) l.choice.operations.push_back(op);
  return 0;
}

}  // namespace

bool is_cuda_api_kind(rocprofiler_buffer_tracing_kind_t kind) {
  return kind == ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API ||
         kind == ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API;
}

api_operation_choice choose_operations(rocprofiler_buffer_tracing_kind_t kind,
                                       const std::vector<std::string>& include,
                                       const std::vector<std::string>& exclude) {
  api_operation_choice choice;
  if (include.empty() && exclude.empty()) return choice;
  listing l{include, exclude, choice};
  rocprofiler_iterate_buffer_tracing_kind_operations(kind, take_operation, &l);
  // Nothing listed (no backend) or nothing left out: the whole kind, as without the lists.
  choice.all = l.count == 0 || choice.operations.size() == l.count;
  if (choice.all) choice.operations.clear();
  return choice;
}

}  // namespace rocprof::tool
