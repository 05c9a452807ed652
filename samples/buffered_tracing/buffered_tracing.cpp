// Sample tool: buffer tracing. Records of markers, kernel dispatches, memory copies and sets,
// and CUDA runtime API calls arrive in batches on a callback thread of the tool's own; each is
// printed with its names from the name table (rocprofiler-sdk/cxx/name_info.hpp), kernels with
// the symbol names code-object tracing reported (demangled for display), CUDA calls with their
// arguments (rocprofiler_iterate_buffer_tracing_record_args).
//
// Lines: "names buffer_kinds=N operations=M", then per record
//   "record kind=KERNEL_DISPATCH op=KERNEL_DISPATCH_COMPLETE cid=.. ext=.. tid=.. kernel=.."
//   "record kind=MEMORY_COPY op=MEMORY_COPY_HOST_TO_DEVICE ... bytes=.."
//   "record kind=MARKER_CORE_RANGE_API op=roctxThreadRangeA ... message=.."
//   "record kind=CUDA_RUNTIME_API op=cudaMemcpy ... args=(dst=0x.., count=4096, ...)"
// and at the end "summary records=N dropped=D".
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <rocprofiler-sdk/cxx/name_info.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/demangle.hpp"
#include "common/sample_output.hpp"

namespace {

rocprofiler_context_id_t g_context{};
rocprofiler_buffer_id_t g_buffer{};
// Built on first use, never destroyed (buffer threads print at exit). Not a namespace-scope
// object: with ROCPROFILER_LIBRARY_CTOR=1 the SDK initialises its tools from its own constructor,
// which runs before this library's (it depends on the SDK), so initialize() would use an object
// before its constructor ran (whether that constructor later empties it is up to the compiler).
struct tool_state {
  rocprofiler::sdk::buffer_name_info names;
  std::mutex kernels_mutex;
  std::map<uint64_t, std::string> kernels;  // kernel id -> symbol name, demangled
};
tool_state& state() {
  static tool_state* s = new tool_state{};
  return *s;
}
std::atomic<uint64_t> g_records{0};
std::atomic<uint64_t> g_dropped{0};

std::string kernel_name(uint64_t kernel_id) {
  tool_state& st = state();
  std::lock_guard<std::mutex> lock(st.kernels_mutex);
  const auto found = st.kernels.find(kernel_id);
  return found != st.kernels.end() ? found->second : "?";
}

void on_code_object(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*) {
  if (record.operation != ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER ||
      record.phase != ROCPROFILER_CALLBACK_PHASE_LOAD)
    return;
  const auto* symbol = static_cast<const rocprofiler_kernel_symbol_data_t*>(record.payload);
  tool_state& st = state();
  std::lock_guard<std::mutex> lock(st.kernels_mutex);
  st.kernels[symbol->kernel_id] = sample::demangled(symbol->kernel_name);
}

// "(name=value, ...)" of a buffered CUDA API record.
std::string call_args(const rocprofiler_record_header_t& header) {
  std::string text;
  rocprofiler_iterate_buffer_tracing_record_args(
      header,
      [](rocprofiler_buffer_tracing_kind_t, rocprofiler_tracing_operation_t, uint32_t number,
         const void* const, int32_t, const char*, const char* name, const char* value, void* data) {
        auto& out = *static_cast<std::string*>(data);
        out += number == 0 ? "(" : ", ";
        out += std::string(name) + "=" + value;
        return 0;
      },
      &text);
  return text.empty() ? "()" : text + ")";
}

// at() throws std::out_of_range for what the table does not name (e.g. CUDA operations when
// CUPTI could not be loaded).
std::string_view name_of(rocprofiler_buffer_tracing_kind_t kind, int32_t op = -1) {
  try {
    const rocprofiler::sdk::buffer_name_info& names = state().names;
    return op < 0 ? names.at(kind) : names.at(kind, op);
  } catch (const std::out_of_range&) {
    return "?";
  }
}

// The fields every tracing record starts with: kind, operation, correlation id, thread.
template <typename Record>
sample::line record_line(const Record& r, rocprofiler_tracing_operation_t op) {
  sample::line l{"record"};
  l.add("kind", name_of(r.kind)).add("op", name_of(r.kind, op));
  l.add("cid", r.correlation_id.internal).add("ext", r.correlation_id.external.value);
  l.add("tid", r.thread_id);
  return l;
}

void print_record(const rocprofiler_record_header_t& header) {
  switch (header.kind) {
    case ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH: {
      const auto& r =
          *static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(header.payload);
      const auto& info = r.dispatch_info;
      record_line(r, r.operation)
          .add("kernel", kernel_name(info.kernel_id))
          .add("agent", info.agent_id.handle)
          .add("grid", std::to_string(info.grid_size.x) + "x" + std::to_string(info.grid_size.y) +
                           "x" + std::to_string(info.grid_size.z))
          .add("duration_ns", r.end_timestamp - r.start_timestamp)
          .print();
      break;
    }
    case ROCPROFILER_BUFFER_TRACING_MEMORY_COPY: {
      const auto& r =
          *static_cast<const rocprofiler_buffer_tracing_memory_copy_record_t*>(header.payload);
      record_line(r, r.operation).add("bytes", r.bytes).print();
      break;
    }
    case ROCPROFILER_BUFFER_TRACING_MEMORY_SET: {
      const auto& r =
          *static_cast<const rocprofiler_buffer_tracing_memory_set_record_t*>(header.payload);
      record_line(r, r.operation).add("bytes", r.bytes).print();
      break;
    }
    case ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API: {
      const auto& r =
          *static_cast<const rocprofiler_buffer_tracing_marker_api_record_t*>(header.payload);
      record_line(r, r.operation).add("message", r.message != nullptr ? r.message : "").print();
      break;
    }
    case ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API: {
      const auto& r =
          *static_cast<const rocprofiler_buffer_tracing_cuda_api_record_t*>(header.payload);
      record_line(r, r.operation)
          .add("return", r.return_code)
          .add("args", call_args(header))
          .print();
      break;
    }
    default:
      sample::line("record")
          .add("kind", name_of(static_cast<rocprofiler_buffer_tracing_kind_t>(header.kind)))
          .print();
      break;
  }
}

void on_records(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                rocprofiler_record_header_t** headers, size_t count, void*, uint64_t dropped) {
  g_dropped += dropped;
  for (size_t i = 0; i < count; ++i) {
    if (headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING) continue;
    // The hash is category and kind in one number (rocprofiler_record_header_compute_hash).
    if (headers[i]->hash !=
        rocprofiler_record_header_compute_hash(headers[i]->category, headers[i]->kind))
      sample::line("error").add("what", "record header hash").print();
    print_record(*headers[i]);
    ++g_records;
  }
}

int initialize(rocprofiler_client_finalize_t, void*) {
  SAMPLE_CHECK(rocprofiler_create_context(&g_context));
  SAMPLE_CHECK(rocprofiler_configure_callback_tracing_service(
      g_context, ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT, nullptr, 0, on_code_object, nullptr));
  SAMPLE_CHECK(rocprofiler_create_buffer(g_context, 64 * 1024, 60 * 1024,
                                         ROCPROFILER_BUFFER_POLICY_LOSSLESS, on_records, nullptr,
                                         &g_buffer));
  for (auto kind :
       {ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API,
        ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
        ROCPROFILER_BUFFER_TRACING_MEMORY_SET, ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API})
    SAMPLE_CHECK(
        rocprofiler_configure_buffer_tracing_service(g_context, kind, nullptr, 0, g_buffer));
  rocprofiler_callback_thread_t thread{};
  SAMPLE_CHECK(rocprofiler_create_callback_thread(&thread));
  SAMPLE_CHECK(rocprofiler_assign_callback_thread(g_buffer, thread));
  // After configuring: the CUDA kinds' operations are named once their backend is loaded.
  rocprofiler::sdk::buffer_name_info& names = state().names;
  names = rocprofiler::sdk::get_buffer_tracing_names();
  size_t operations = 0;
  for (const auto& kind : names)
    for (const auto& [op, name] : kind.items())
      operations += (op >= 0 && !name->empty()) ? 1 : 0;
  sample::line("names").add("buffer_kinds", names.size()).add("operations", operations).print();
  SAMPLE_CHECK(rocprofiler_start_context(g_context));
  return 0;
}

void finalize(void*) {
  rocprofiler_flush_buffer(g_buffer);
  sample::line("summary").add("records", g_records.load()).add("dropped", g_dropped.load()).print();
}

}  // namespace

extern "C" rocprofiler_tool_configure_result_t* rocprofiler_configure(uint32_t, const char*,
                                                                      uint32_t,
                                                                      rocprofiler_client_id_t* id) {
  id->name = "sample-buffered-tracing";
  static rocprofiler_tool_configure_result_t result{sizeof(rocprofiler_tool_configure_result_t),
                                                    &initialize, &finalize, nullptr};
  return &result;
}
