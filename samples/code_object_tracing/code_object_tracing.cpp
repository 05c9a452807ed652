// Sample tool: code objects. Every code object load (for CUDA: every module, its cubin) and every
// kernel symbol it defines reaches the tool through the CODE_OBJECT callback kind, at load and
// at unload; kernel names are printed demangled. Loads that happened before the tool's context
// started are replayed to it when it starts.
//
// Lines: "code_object phase=load id=.. agent=.. uri=.. storage=memory size=.."
//        "kernel_symbol phase=load kernel_id=.. code_object=.. name=.. registers=.."
// and at the end "summary code_objects=N kernel_symbols=M".
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <atomic>
#include <cstdint>

#include "common/demangle.hpp"
#include "common/sample_output.hpp"

namespace {

rocprofiler_context_id_t g_context{};
std::atomic<uint64_t> g_code_objects{0};
std::atomic<uint64_t> g_kernel_symbols{0};

void on_code_object(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*) {
  const char* phase = record.phase == ROCPROFILER_CALLBACK_PHASE_LOAD ? "load" : "unload";
  if (record.operation == ROCPROFILER_CODE_OBJECT_LOAD) {
    const auto* data =
        static_cast<const rocprofiler_callback_tracing_code_object_load_data_t*>(record.payload);
    const bool in_memory = data->storage_type == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
    sample::line("code_object")
        .add("phase", phase)
        .add("id", data->code_object_id)
        // rocp_agent is the former name of agent_id; both name the same field.
        .add("agent", data->rocp_agent.handle)
        .add("uri", data->uri != nullptr ? data->uri : "")
        .add("storage", in_memory ? "memory" : "file")
        .add("size", in_memory ? data->memory_size : data->load_size)
        .print();
    ++g_code_objects;
  } else if (record.operation == ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER) {
    const auto* data = static_cast<const rocprofiler_kernel_symbol_data_t*>(record.payload);
    sample::line("kernel_symbol")
        .add("phase", phase)
        .add("kernel_id", data->kernel_id)
        .add("code_object", data->code_object_id)
        .add("name", sample::demangled(data->kernel_name))
        .add("registers", data->arch_vgpr_count)
        .add("shared_bytes", data->group_segment_size)
        .print();
    ++g_kernel_symbols;
  }
}

int initialize(rocprofiler_client_finalize_t, void*) {
  SAMPLE_CHECK(rocprofiler_create_context(&g_context));
  SAMPLE_CHECK(rocprofiler_configure_callback_tracing_service(
      g_context, ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT, nullptr, 0, on_code_object, nullptr));
  // Code objects of CUDA modules come from the CUDA backend, which serves kernel dispatches:
  // asking for them (into a buffer this tool ignores) loads it.
  rocprofiler_buffer_id_t buffer{};
  SAMPLE_CHECK(rocprofiler_create_buffer(
      g_context, 4096, 0, ROCPROFILER_BUFFER_POLICY_DISCARD,
      [](rocprofiler_context_id_t, rocprofiler_buffer_id_t, rocprofiler_record_header_t**, size_t,
         void*, uint64_t) {},
      nullptr, &buffer));
  SAMPLE_CHECK(rocprofiler_configure_buffer_tracing_service(
      g_context, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, buffer));
  SAMPLE_CHECK(rocprofiler_start_context(g_context));
  return 0;
}

void finalize(void*) {
  sample::line("summary")
      .add("code_objects", g_code_objects.load())
      .add("kernel_symbols", g_kernel_symbols.load())
      .print();
}

}  // namespace

extern "C" rocprofiler_tool_configure_result_t* rocprofiler_configure(uint32_t, const char*,
                                                                      uint32_t,
                                                                      rocprofiler_client_id_t* id) {
  id->name = "sample-code-object-tracing";
  static rocprofiler_tool_configure_result_t result{sizeof(rocprofiler_tool_configure_result_t),
                                                    &initialize, &finalize, nullptr};
  return &result;
}
