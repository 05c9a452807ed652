#include "api_args_convert.hpp"

#include <atomic>
#include <cstdio>

#include "rocprof/trace/api_args.hpp"

namespace rocprof::tool {

trace::string_id convert_api_args(definitions_builder& defs, api_args_memo& memo,
                                  const rocprofiler_record_header_t& header) {
  const auto& record =
      *static_cast<const rocprofiler_buffer_tracing_cuda_api_record_t*>(header.payload);
  static_assert(sizeof(record.args) == api_args_memo::max_bytes, "the memo keeps whole records");
  const api_args_key key{header.kind, record.operation, record.return_code, record.args_size,
                         record.args};
  trace::string_id id = trace::empty_string;
  if (memo.find(key, &id)) return id;
  trace::api_args_text text{record.return_code};
  const auto add = [](rocprofiler_buffer_tracing_kind_t, rocprofiler_tracing_operation_t, uint32_t,
                      const void* const, int32_t, const char* type, const char* name,
                      const char* value, void* data) -> int {
    static_cast<trace::api_args_text*>(data)->add(
        type != nullptr ? type : "", name != nullptr ? name : "", value != nullptr ? value : "");
    return 0;
  };
  if (rocprofiler_iterate_buffer_tracing_record_args(header, add, &text) !=
      ROCPROFILER_STATUS_SUCCESS)
    return trace::empty_string;
  id = defs.intern_within(text.text(), api_args_budget_bytes);
  memo.remember(id);
  static std::atomic<bool> warned{false};
  if (id == trace::empty_string && !warned.exchange(true))
    std::fprintf(stderr,
                 "rocprofv3: more than %llu MiB of distinct API argument lists: the arguments of "
                 "later calls are not kept\n",
                 static_cast<unsigned long long>(api_args_budget_bytes >> 20));
  return id;
}

}  // namespace rocprof::tool
