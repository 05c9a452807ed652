// CUDA API arguments: the tables generated from the toolkit's CUPTI headers (every callback id
// with a parameter struct), the formatting of each kind of C type, pointers followed only when
// allowed, the copy a buffer record carries, and the external correlation ids asked for at launch.
#include <cupti.h>
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "abi_sink.hpp"
#include "api_arg_format.hpp"
#include "api_args.hpp"
#include "launch_external_id.hpp"
#include "recording_sink.hpp"
#include "stream_capture.hpp"

namespace rocprof::cuda {
namespace {

struct seen_arg {
  uint32_t number;
  int32_t indirection;
  std::string type, name, value;
  int32_t derefs;
};

std::vector<seen_arg> args_of(api_domain d, uint32_t cbid, const void* params, uint64_t size,
                              int32_t max_deref, rocprofiler_status_t* status = nullptr) {
  std::vector<seen_arg> out;
  const rocprofiler_status_t s = iterate_api_args(
      d, cbid, params, size, max_deref,
      [](uint32_t n, const void*, int32_t ind, const char* type, const char* name,
         const char* value, int32_t derefs, void* data) {
        static_cast<std::vector<seen_arg>*>(data)->push_back({n, ind, type, name, value, derefs});
        return 0;
      },
      &out);
  if (status != nullptr) *status = s;
  return out;
}

std::string hex(const void* p) {
  char text[32];
  std::snprintf(text, sizeof(text), "%p", p);
  return text;
}

TEST(api_args, every_generated_signature_fits_its_struct_and_a_buffer_record) {
  size_t total = 0;
  for (const auto& [signatures, count] :
       {std::make_pair(runtime_signatures, runtime_signature_count),
        std::make_pair(driver_signatures, driver_signature_count)}) {
    EXPECT_GT(count, 300u);
    for (size_t i = 0; i < count; ++i) {
      const api_signature& s = signatures[i];
      EXPECT_GT(s.count, 0u);
      EXPECT_LE(s.params_size, uint32_t{ROCPROFILER_CUDA_API_ARGS_CAPACITY}) << s.cbid;
      for (uint32_t a = 0; a < s.count; ++a) {
        EXPECT_LT(s.args[a].offset, s.params_size);
        EXPECT_NE(std::string(s.args[a].name), "");
        EXPECT_NE(std::string(s.args[a].type), "");
      }
      ++total;
    }
  }
  EXPECT_GT(total, 900u);
}

TEST(api_args, cuda_memcpy_reads_as_declared) {
  const api_signature* s =
      find_signature(api_domain::runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->params_size, sizeof(cudaMemcpy_v3020_params));
  cudaMemcpy_v3020_params p{};
  p.dst = reinterpret_cast<void*>(uintptr_t{0xd000});
  p.src = reinterpret_cast<const void*>(uintptr_t{0xc000});
  p.count = 4096;
  p.kind = cudaMemcpyDeviceToHost;
  const auto args = args_of(api_domain::runtime, s->cbid, &p, 0, 1);
  ASSERT_EQ(args.size(), 4u);
  EXPECT_EQ(args[0].name, "dst");
  EXPECT_EQ(args[0].type, "void*");
  EXPECT_EQ(args[0].value, "0xd000");  // void*: device memory, never followed
  EXPECT_EQ(args[0].indirection, 1);
  EXPECT_EQ(args[1].type, "const void*");
  EXPECT_EQ(args[2].name, "count");
  EXPECT_EQ(args[2].value, "4096");
  EXPECT_EQ(args[3].type, "enum cudaMemcpyKind");
  EXPECT_EQ(args[3].value, "2");
  EXPECT_EQ(args[3].indirection, 0);
}

TEST(api_args, output_pointers_are_followed_only_when_allowed) {
  void* allocated = reinterpret_cast<void*>(uintptr_t{0x7f0000});
  cudaMalloc_v3020_params p{};
  p.devPtr = &allocated;
  p.size = 64;
  const uint32_t cbid = CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020;
  auto exit_args = args_of(api_domain::runtime, cbid, &p, 0, 2);
  ASSERT_EQ(exit_args.size(), 2u);
  EXPECT_EQ(exit_args[0].value, hex(&allocated) + "->0x7f0000");
  EXPECT_EQ(exit_args[0].derefs, 1);
  EXPECT_EQ(exit_args[0].indirection, 2);
  auto enter_args = args_of(api_domain::runtime, cbid, &p, 0, 0);
  EXPECT_EQ(enter_args[0].value, hex(&allocated));
  EXPECT_EQ(enter_args[0].derefs, 0);
  // A copy (buffer record): the pointer targets are gone, never followed.
  auto copied = args_of(api_domain::runtime, cbid, &p, sizeof(p), 2);
  EXPECT_EQ(copied[0].value, hex(&allocated));
  rocprofiler_status_t status = ROCPROFILER_STATUS_SUCCESS;
  args_of(api_domain::runtime, cbid, &p, sizeof(p) - 1, 0, &status);
  EXPECT_EQ(status, ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND) << "a copy of the wrong size";
}

TEST(api_args, strings_structs_and_dims) {
  cuModuleGetFunction_params f{};
  f.name = "my_kernel";
  auto args = args_of(api_domain::driver, CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction, &f, 0, 1);
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[2].name, "name");
  EXPECT_EQ(args[2].value, "my_kernel");
  EXPECT_EQ(args[2].derefs, 1);

  cudaLaunchKernel_v7000_params l{};
  l.gridDim = dim3(2, 3, 4);
  l.blockDim = dim3(128, 1, 1);
  l.sharedMem = 16;
  args = args_of(api_domain::runtime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &l, 0, 1);
  ASSERT_EQ(args.size(), 6u);
  EXPECT_EQ(args[1].type, "dim3");
  EXPECT_EQ(args[1].value, "{2, 3, 4}");
  EXPECT_EQ(args[2].value, "{128, 1, 1}");
  EXPECT_EQ(args[4].value, "16");

  cudaIpcOpenMemHandle_v4010_params ipc{};
  args =
      args_of(api_domain::runtime, CUPTI_RUNTIME_TRACE_CBID_cudaIpcOpenMemHandle_v4010, &ipc, 0, 1);
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[1].value, "{...}") << "a struct passed by value";

  EXPECT_TRUE(
      args_of(api_domain::runtime, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, &ipc, 0, 1)
          .empty())
      << "a call without parameters";
}

// The formatter writes numbers, addresses and dims without printf: the same text as printf's,
// truncated the same way when the output is short.
template <typename T>
std::string formatted(T value, size_t size = 64) {
  char out[64];
  format_arg<T>(&value, 0, out, size);
  return out;
}

std::string printed(size_t size, const char* format, ...) __attribute__((format(printf, 2, 3)));
std::string printed(size_t size, const char* format, ...) {
  char out[64];
  va_list args;
  va_start(args, format);
  std::vsnprintf(out, size, format, args);
  va_end(args);
  return out;
}

TEST(api_args, numbers_addresses_and_dims_read_as_printf_writes_them) {
  const uint64_t unsigned_values[] = {
      0,         1, 9, 10, 99, 100, 4096, 65535, 4294967295ULL, 4294967296ULL, 1234567890123ULL,
      UINT64_MAX};
  for (uint64_t v : unsigned_values) {
    EXPECT_EQ(formatted(v), printed(64, "%" PRIu64, v));
    EXPECT_EQ(formatted(static_cast<uint32_t>(v)), printed(64, "%u", static_cast<uint32_t>(v)));
    EXPECT_EQ(formatted(static_cast<unsigned short>(v)),
              printed(64, "%u", static_cast<unsigned short>(v)));
    const auto s = static_cast<int64_t>(v);
    EXPECT_EQ(formatted(s), printed(64, "%" PRId64, s));
    EXPECT_EQ(formatted(-s), printed(64, "%" PRId64, -s));
    EXPECT_EQ(formatted(static_cast<int>(v)), printed(64, "%d", static_cast<int>(v)));
    EXPECT_EQ(formatted(static_cast<char>(v)), printed(64, "%d", static_cast<char>(v)));
    const auto* p = reinterpret_cast<const void*>(static_cast<uintptr_t>(v));
    EXPECT_EQ(formatted(p), printed(64, "%p", p));
    EXPECT_EQ(formatted(const_cast<void**>(reinterpret_cast<void* const*>(p))),
              printed(64, "%p", p));
    const dim3 d(static_cast<unsigned>(v), static_cast<unsigned>(v >> 7), 1);
    EXPECT_EQ(formatted(d), printed(64, "{%u, %u, %u}", d.x, d.y, d.z));
    for (size_t size : {1, 2, 5, 9}) {
      EXPECT_EQ(formatted(v, size), printed(size, "%" PRIu64, v)) << size;
      EXPECT_EQ(formatted(-s, size), printed(size, "%" PRId64, -s)) << size;
      EXPECT_EQ(formatted(p, size), printed(size, "%p", p)) << size;
      EXPECT_EQ(formatted(d, size), printed(size, "{%u, %u, %u}", d.x, d.y, d.z)) << size;
    }
  }
  EXPECT_EQ(formatted(INT64_MIN), printed(64, "%" PRId64, INT64_MIN));
  EXPECT_EQ(formatted(cudaMemcpyDeviceToHost), "2");
}

TEST(api_args, a_buffer_record_carries_the_parameter_struct) {
  struct log {
    std::vector<std::vector<unsigned char>> records;
  };
  static log emitted;
  emitted.records.clear();
  rocprof_core_services_t core{};
  core.size = sizeof(core);
  core.abi_version = ROCPROF_BACKEND_ABI_VERSION;
  core.buffer_kind_enabled = [](rocprofiler_buffer_tracing_kind_t, int32_t) { return 1; };
  core.callback_kind_enabled = [](rocprofiler_callback_tracing_kind_t, int32_t) { return 0; };
  core.api_enter = [](rocprof_api_scope_t* scope, rocprofiler_callback_tracing_kind_t, int32_t,
                      void*) { scope->correlation_id.internal = 42; };
  core.api_exit = [](rocprof_api_scope_t*, void*) {};
  core.emit_buffer_record = [](rocprofiler_buffer_tracing_kind_t, const void* record, uint32_t) {
    uint64_t size = 0;
    std::memcpy(&size, record, sizeof(size));
    const auto* bytes = static_cast<const unsigned char*>(record);
    emitted.records.emplace_back(bytes, bytes + size);
  };
  abi_sink sink{&core};
  cudaMemcpy_v3020_params p{};
  p.count = 12345;
  api_event e;
  e.domain = api_domain::runtime;
  e.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020;
  e.args = &p;
  sink.api_enter(e);
  sink.api_exit(e);
  ASSERT_EQ(emitted.records.size(), 1u);
  rocprofiler_buffer_tracing_cuda_api_record_t r{};
  std::memcpy(&r, emitted.records[0].data(), sizeof(r));
  EXPECT_EQ(r.args_size, sizeof(p));
  EXPECT_EQ(std::memcmp(r.args, &p, sizeof(p)), 0);
  const auto args = args_of(api_domain::runtime, e.cbid, r.args, r.args_size, 0);
  ASSERT_EQ(args.size(), 4u);
  EXPECT_EQ(args[2].value, "12345");
  // Calls without a parameter struct carry none.
  e.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020;
  sink.api_enter(e);
  sink.api_exit(e);
  ASSERT_EQ(emitted.records.size(), 2u);
  std::memcpy(&r, emitted.records[1].data(), sizeof(r));
  EXPECT_EQ(r.args_size, 0u);
}

// A sink whose tool answers requests for kernel dispatches with 1000 + the internal id.
class answering_sink : public test::recording_sink {
 public:
  bool request_external_id(cuda_domain work, uint32_t operation, uint64_t internal_id,
                           uint64_t* external) override {
    asked.push_back({work, operation, internal_id});
    if (work != cuda_domain::kernel_dispatch) return false;
    *external = 1000 + internal_id;
    return true;
  }
  struct request {
    cuda_domain work;
    uint32_t operation;
    uint64_t internal;
  };
  std::vector<request> asked;
};

TEST(launch_external_id, the_tool_is_asked_once_per_launch_for_the_work_it_launches) {
  EXPECT_EQ(launch_work_of("cudaLaunchKernel_v7000"),
            1u << static_cast<int>(cuda_domain::kernel_dispatch));
  EXPECT_EQ(launch_work_of("cuMemcpyHtoD_v2"), 1u << static_cast<int>(cuda_domain::memory_copy));
  EXPECT_EQ(launch_work_of("cudaStreamSynchronize"), 0u);
  EXPECT_NE(launch_work_of("cudaGraphLaunch") & (1u << static_cast<int>(cuda_domain::memory_set)),
            0u);
  answering_sink sink;
  // Callback ids above CUDA 13's (the work of an id is cached per process): a runtime launch
  // (owner 7) and the driver launch nested in it: one request, one answer.
  EXPECT_EQ(launch_external_id(sink, api_domain::runtime, 1001, "cudaLaunchKernel", 7, true, 5),
            1007u);
  EXPECT_EQ(launch_external_id(sink, api_domain::driver, 1002, "cuLaunchKernel", 7, false, 5),
            1007u);
  ASSERT_EQ(sink.asked.size(), 1u);
  EXPECT_EQ(sink.asked[0].operation, 1001u);
  EXPECT_EQ(sink.asked[0].internal, 7u);
  // A copy: asked, not answered: the pushed id stays.
  EXPECT_EQ(launch_external_id(sink, api_domain::runtime, 1003, "cudaMemcpy", 8, true, 5), 5u);
  EXPECT_EQ(sink.asked.back().work, cuda_domain::memory_copy);
  // Not a launch: nobody is asked.
  const size_t before = sink.asked.size();
  EXPECT_EQ(
      launch_external_id(sink, api_domain::runtime, 1004, "cudaStreamSynchronize", 9, true, 5), 5u);
  EXPECT_EQ(sink.asked.size(), before);
  // A later call with the same owner id (ids repeat only across test sinks) asks again.
  EXPECT_EQ(launch_external_id(sink, api_domain::runtime, 1001, "cudaLaunchKernel", 7, true, 5),
            1007u);
  EXPECT_EQ(sink.asked.size(), before + 1);
}

TEST(stream_capture, the_stream_argument_is_read_from_the_parameter_struct) {
  const auto stream = reinterpret_cast<CUstream>(uintptr_t{0x5a5a0});
  cudaMemcpyAsync_v3020_params copy{};
  copy.stream = stream;
  CUstream seen = nullptr;
  ASSERT_TRUE(stream_argument(api_domain::runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020,
                              &copy, seen));
  EXPECT_EQ(seen, stream);
  cuLaunchKernel_params launch{};
  launch.hStream = stream;
  seen = nullptr;
  ASSERT_TRUE(
      stream_argument(api_domain::driver, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &launch, seen));
  EXPECT_EQ(seen, stream);
  // A synchronous copy has no stream; neither has a call without parameters.
  cudaMemcpy_v3020_params sync_copy{};
  EXPECT_FALSE(stream_argument(api_domain::runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,
                               &sync_copy, seen));
  EXPECT_FALSE(stream_argument(api_domain::runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,
                               nullptr, seen));
  // No driver in this process: nothing is capturing.
  EXPECT_FALSE(launches_into_capture(api_domain::runtime,
                                     CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, &copy));
}

// The stand-in for cuStreamIsCapturing: the stream whose handle is 1 is being captured.
bool capturing_stream_one(api_domain, uint32_t, const void* params) {
  return params != nullptr && *static_cast<const int*>(params) == 1;
}

TEST(launch_external_id, a_launch_into_a_capturing_stream_is_not_asked_about_its_graph_launch_is) {
  EXPECT_EQ(launch_work_of("cudaStreamBeginCapture_v10000"), begins_capture);
  EXPECT_EQ(launch_work_of("cuStreamBeginCapture_v2"), begins_capture);
  answering_sink sink;
  const int captured = 1, plain = 0;
  // Callback ids above CUDA 13's, as above (the work of an id is cached per process).
  EXPECT_EQ(launch_external_id(sink, api_domain::runtime, 1010, "cudaStreamBeginCapture", 20, true,
                               5, &captured, &capturing_stream_one),
            5u);
  EXPECT_TRUE(sink.asked.empty());
  // Launches recorded into the capture: no work runs, nobody is asked, the pushed id stays
  // (the runtime call and its nested driver call alike).
  EXPECT_EQ(launch_external_id(sink, api_domain::runtime, 1011, "cudaLaunchKernel", 21, true, 5,
                               &captured, &capturing_stream_one),
            5u);
  EXPECT_EQ(launch_external_id(sink, api_domain::driver, 1012, "cuLaunchKernel", 21, false, 5,
                               &captured, &capturing_stream_one),
            5u);
  EXPECT_EQ(launch_external_id(sink, api_domain::runtime, 1013, "cudaMemcpyAsync", 22, true, 5,
                               &captured, &capturing_stream_one),
            5u);
  EXPECT_TRUE(sink.asked.empty());
  // A launch into another stream meanwhile runs: asked.
  EXPECT_EQ(launch_external_id(sink, api_domain::runtime, 1011, "cudaLaunchKernel", 23, true, 5,
                               &plain, &capturing_stream_one),
            1023u);
  // The graph's launch runs the captured work: asked once, for all of it.
  EXPECT_EQ(launch_external_id(sink, api_domain::runtime, 1014, "cudaGraphLaunch", 24, true, 5,
                               &plain, &capturing_stream_one),
            1024u);
  ASSERT_EQ(sink.asked.size(), 2u);
  EXPECT_EQ(sink.asked[1].internal, 24u);
}

}  // namespace
}  // namespace rocprof::cuda
