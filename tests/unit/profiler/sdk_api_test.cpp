// The pieces of the rocprofiler-sdk API that tool authors reach for besides tracing itself
// (issue 16): the version triplet with cxx/version.hpp and cxx/operators.hpp, the record-header
// hash, the name tables of cxx/name_info.hpp, the arguments of marker calls, and the
// external-correlation-id request service (configured by this process's own tool, requested by
// the test backend as a GPU backend would at a launch).
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <rocprofiler-sdk-roctx/roctx.h>
#include <rocprofiler-sdk/backend/backend_abi.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <rocprofiler-sdk/cxx/name_info.hpp>
#include <rocprofiler-sdk/cxx/operators.hpp>
#include <rocprofiler-sdk/cxx/version.hpp>

#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct arg_seen {
  std::string op, name, type, value;
  int32_t derefs = 0;
};

struct request_seen {
  uint64_t tid, context;
  rocprofiler_external_correlation_id_request_kind_t kind;
  int32_t operation;
  uint64_t internal;
};

struct state {
  rocprofiler_context_id_t markers{}, requests{};
  std::mutex mutex;
  std::vector<arg_seen> args;             // marker calls, followed once (max 1)
  std::vector<arg_seen> args_unfollowed;  // the same calls, max 0
  std::vector<request_seen> asked;
  rocprofiler_status_t bad_kind = ROCPROFILER_STATUS_SUCCESS;
  rocprofiler_status_t second = ROCPROFILER_STATUS_SUCCESS;
};

state& st() {
  static state s;
  return s;
}

void collect_args(rocprofiler_callback_tracing_record_t record, int32_t max_deref,
                  std::vector<arg_seen>& out) {
  const char* op = nullptr;
  rocprofiler_query_callback_tracing_kind_operation_name(record.kind, record.operation, &op,
                                                         nullptr);
  struct ctx {
    std::vector<arg_seen>* out;
    std::string op;
  } c{&out, op != nullptr ? op : "?"};
  EXPECT_EQ(rocprofiler_iterate_callback_tracing_kind_operation_args(
                record,
                [](rocprofiler_callback_tracing_kind_t, rocprofiler_tracing_operation_t, uint32_t,
                   const void* const, int32_t, const char* type, const char* name,
                   const char* value, int32_t derefs, void* data) {
                  auto& x = *static_cast<ctx*>(data);
                  x.out->push_back({x.op, name, type, value, derefs});
                  return 0;
                },
                max_deref, &c),
            ROCPROFILER_STATUS_SUCCESS);
}

void on_marker(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*) {
  if (record.phase != ROCPROFILER_CALLBACK_PHASE_EXIT) return;
  std::lock_guard<std::mutex> lock(st().mutex);
  collect_args(record, 1, st().args);
  collect_args(record, 0, st().args_unfollowed);
}

int on_request(rocprofiler_thread_id_t tid, rocprofiler_context_id_t context,
               rocprofiler_external_correlation_id_request_kind_t kind,
               rocprofiler_tracing_operation_t op, uint64_t internal,
               rocprofiler_user_data_t* external, void*) {
  std::lock_guard<std::mutex> lock(st().mutex);
  st().asked.push_back({tid, context.handle, kind, op, internal});
  external->value = 1000 + internal;
  return 0;
}

int initialize(rocprofiler_client_finalize_t, void*) {
  state& s = st();
  rocprofiler_create_context(&s.markers);
  for (auto kind :
       {ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API})
    rocprofiler_configure_callback_tracing_service(s.markers, kind, nullptr, 0, on_marker, nullptr);
  rocprofiler_create_context(&s.requests);
  const rocprofiler_external_correlation_id_request_kind_t bad[] = {
      ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST};
  s.bad_kind = rocprofiler_configure_external_correlation_id_request_service(s.requests, bad, 1,
                                                                             on_request, nullptr);
  const rocprofiler_external_correlation_id_request_kind_t kinds[] = {
      ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH,
      ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_CUDA_RUNTIME_API};
  rocprofiler_configure_external_correlation_id_request_service(s.requests, kinds, 2, on_request,
                                                                nullptr);
  s.second = rocprofiler_configure_external_correlation_id_request_service(s.requests, nullptr, 0,
                                                                           on_request, nullptr);
  return 0;
}

rocprofiler_tool_configure_result_t* configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  id->name = "sdk_api_test";
  static rocprofiler_tool_configure_result_t result{sizeof(result), initialize, nullptr, nullptr};
  return &result;
}

class environment : public testing::Environment {
 public:
  void SetUp() override {
    setenv("ROCPROF_BACKEND_DIR", ROCPROF_TEST_BACKEND_DIR, 1);
    ASSERT_EQ(rocprofiler_force_configure(configure), ROCPROFILER_STATUS_SUCCESS);
  }
};
const auto* const g_environment = testing::AddGlobalTestEnvironment(new environment);

TEST(sdk_api, version_triplet_and_its_helpers) {
  rocprofiler_version_triplet_t v{};
  ASSERT_EQ(rocprofiler_get_version_triplet(&v), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(v, (rocprofiler_version_triplet_t{ROCPROFILER_VERSION_MAJOR, ROCPROFILER_VERSION_MINOR,
                                              ROCPROFILER_VERSION_PATCH}));
  namespace version = rocprofiler::sdk::version;
  EXPECT_EQ(version::compute_version_triplet(ROCPROFILER_VERSION), v);
  EXPECT_EQ(version::compute_version_triplet(10203), (rocprofiler_version_triplet_t{1, 2, 3}));
  EXPECT_EQ(version::compute_version_triplet<1000>(1002003),
            (rocprofiler_version_triplet_t{1, 2, 3}));
  EXPECT_LT((rocprofiler_version_triplet_t{1, 2, 3}), (rocprofiler_version_triplet_t{1, 10, 0}));
  EXPECT_GE(v, v);
  EXPECT_NE(v, (rocprofiler_version_triplet_t{0, 0, 0}));
}

TEST(sdk_api, operators_order_handles_and_dims) {
  std::set<rocprofiler_agent_id_t> agents{{3}, {1}, {2}, {1}};
  EXPECT_EQ(agents.size(), 3u);
  EXPECT_EQ(agents.begin()->handle, 1u);
  EXPECT_EQ((rocprofiler_context_id_t{4}), (rocprofiler_context_id_t{4}));
  EXPECT_GT((rocprofiler_buffer_id_t{5}), (rocprofiler_buffer_id_t{4}));
  // dims: by volume first, then x, y, z.
  EXPECT_LT((rocprofiler_dim3_t{8, 8, 1}), (rocprofiler_dim3_t{1, 1, 65}));
  EXPECT_LT((rocprofiler_dim3_t{1, 4, 1}), (rocprofiler_dim3_t{4, 1, 1}));
  EXPECT_EQ((rocprofiler_dim3_t{2, 3, 4}), (rocprofiler_dim3_t{2, 3, 4}));
}

TEST(sdk_api, record_header_hash_is_category_and_kind) {
  EXPECT_EQ(rocprofiler_record_header_compute_hash(ROCPROFILER_BUFFER_CATEGORY_TRACING,
                                                   ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH),
            uint64_t{ROCPROFILER_BUFFER_CATEGORY_TRACING} |
                (uint64_t{ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH} << 32));
  EXPECT_EQ(rocprofiler_record_header_compute_hash(0xffffffffu, 0xffffffffu), ~uint64_t{0});
}

TEST(sdk_api, name_tables_name_every_kind_and_operation) {
  const auto buffer = rocprofiler::sdk::get_buffer_tracing_names();
  EXPECT_EQ(buffer.size(), size_t{ROCPROFILER_BUFFER_TRACING_LAST});
  EXPECT_EQ(buffer.at(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY), "MEMORY_COPY");
  EXPECT_EQ(
      buffer.at(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE),
      "MEMORY_COPY_HOST_TO_DEVICE");
  EXPECT_EQ(buffer[ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API]
                  [ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA],
            "roctxThreadRangeA");
  EXPECT_THROW(buffer.at(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, 99), std::out_of_range);
  EXPECT_THROW(buffer.at(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, -1), std::out_of_range);
  size_t index = 0;  // entries are indexed by kind value; 0 (NONE) is never named
  for (const auto& kind : buffer) {
    EXPECT_EQ(static_cast<size_t>(kind.value), index) << kind.name;
    EXPECT_EQ(kind.name.empty(), index == 0) << index;
    ++index;
    for (auto [op, name] : kind.items())
      EXPECT_GE(op, 0) << *name;
  }
  const auto items = buffer.items();
  ASSERT_GT(items.size(), size_t{ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH});
  EXPECT_EQ(items[ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH]->name, "KERNEL_DISPATCH");

  const auto callback = rocprofiler::sdk::get_callback_tracing_names<std::string>();
  EXPECT_EQ(callback.at(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                        ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER),
            "CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER");
  EXPECT_EQ(callback.at(ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API), "MARKER_NAME_API");
}

TEST(sdk_api, marker_calls_show_their_arguments) {
  ASSERT_EQ(rocprofiler_start_context(st().markers), ROCPROFILER_STATUS_SUCCESS);
  roctxRangePushA("hello");
  roctxRangePop();
  const roctx_range_id_t id = roctxRangeStartA("range");
  roctxRangeStop(id);
  roctxNameOsThread("named");
  ASSERT_EQ(rocprofiler_stop_context(st().markers), ROCPROFILER_STATUS_SUCCESS);

  std::lock_guard<std::mutex> lock(st().mutex);
  std::map<std::string, arg_seen> by_op;
  for (const auto& a : st().args)
    by_op[a.op + "." + a.name] = a;
  ASSERT_EQ(by_op.count("roctxRangePushA.message"), 1u);
  EXPECT_EQ(by_op["roctxRangePushA.message"].value, "hello");
  EXPECT_EQ(by_op["roctxRangePushA.message"].type, "const char*");
  EXPECT_EQ(by_op["roctxRangePushA.message"].derefs, 1);
  EXPECT_EQ(by_op["roctxRangeStartA.message"].value, "range");
  EXPECT_EQ(by_op["roctxRangeStop.id"].value, std::to_string(id));
  EXPECT_EQ(by_op["roctxNameOsThread.name"].value, "named");
  EXPECT_EQ(by_op.count("roctxRangePop.unused"), 0u) << "roctxRangePop has no argument";
  // With no dereference allowed, the string is its address.
  for (const auto& a : st().args_unfollowed) {
    if (a.op == "roctxRangePushA") {
      EXPECT_EQ(a.value.rfind("0x", 0), 0u) << a.value;
      EXPECT_EQ(a.derefs, 0);
    }
  }
}

TEST(sdk_api, argument_iteration_refuses_kinds_without_arguments) {
  rocprofiler_callback_tracing_record_t record{};
  record.kind = ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT;
  const auto cb = [](rocprofiler_callback_tracing_kind_t, rocprofiler_tracing_operation_t, uint32_t,
                     const void* const, int32_t, const char*, const char*, const char*, int32_t,
                     void*) { return 0; };
  EXPECT_EQ(rocprofiler_iterate_callback_tracing_kind_operation_args(record, cb, 1, nullptr),
            ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
  rocprofiler_buffer_tracing_marker_api_record_t marker{};
  rocprofiler_record_header_t header{};
  header.category = ROCPROFILER_BUFFER_CATEGORY_TRACING;
  header.kind = ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API;
  header.payload = &marker;
  const auto bcb = [](rocprofiler_buffer_tracing_kind_t, rocprofiler_tracing_operation_t, uint32_t,
                      const void* const, int32_t, const char*, const char*, const char*,
                      void*) { return 0; };
  EXPECT_EQ(rocprofiler_iterate_buffer_tracing_record_args(header, bcb, nullptr),
            ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
  // A CUDA API record without a parameter struct: no argument, no error.
  rocprofiler_buffer_tracing_cuda_api_record_t cuda{};
  header.kind = ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API;
  header.payload = &cuda;
  EXPECT_EQ(rocprofiler_iterate_buffer_tracing_record_args(header, bcb, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
}

TEST(sdk_api, request_service_configuration) {
  EXPECT_EQ(st().bad_kind, ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
  EXPECT_EQ(st().second, ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
  EXPECT_EQ(rocprofiler_configure_external_correlation_id_request_service(st().requests, nullptr, 0,
                                                                          on_request, nullptr),
            ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
  const char* name = nullptr;
  uint64_t length = 0;
  ASSERT_EQ(rocprofiler_query_external_correlation_id_request_kind_name(
                ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH, &name, &length),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(name, "KERNEL_DISPATCH");
  EXPECT_EQ(length, 15u);
  ASSERT_EQ(rocprofiler_query_external_correlation_id_request_kind_name(
                ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_SET, &name, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(name, "MEMORY_SET");
  EXPECT_EQ(rocprofiler_query_external_correlation_id_request_kind_name(
                ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE, &name, nullptr),
            ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
}

TEST(sdk_api, requests_reach_the_tool_of_an_active_context_only) {
  ASSERT_EQ(rocprof_backend_request("testbackend"), ROCPROFILER_STATUS_SUCCESS);
  void* backend =
      dlopen(ROCPROF_TEST_BACKEND_DIR "/librocprofiler-sdk-testbackend.so", RTLD_NOLOAD | RTLD_NOW);
  ASSERT_NE(backend, nullptr);
  using request_fn =
      int (*)(rocprofiler_external_correlation_id_request_kind_t, int32_t, uint64_t, uint64_t*);
  using launch_fn = uint64_t (*)();
  auto request = reinterpret_cast<request_fn>(dlsym(backend, "test_backend_request"));
  auto launch = reinterpret_cast<launch_fn>(dlsym(backend, "test_backend_launch"));
  ASSERT_NE(request, nullptr);
  ASSERT_NE(launch, nullptr);
  uint64_t external = 0;
  EXPECT_EQ(request(ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH, 211, 7, &external), 0)
      << "the requesting context is not started";

  ASSERT_EQ(rocprofiler_start_context(st().requests), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(request(ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH, 211, 7, &external),
            1);
  EXPECT_EQ(external, 1007u);
  EXPECT_EQ(request(ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_COPY, 31, 8, &external), 0)
      << "a kind the tool did not ask to be asked about";
  const uint64_t call = launch();  // an API call of CUDA_RUNTIME_API: asked at its ENTER
  ASSERT_EQ(rocprofiler_stop_context(st().requests), ROCPROFILER_STATUS_SUCCESS);

  rocprofiler_thread_id_t tid = 0;
  rocprofiler_get_thread_id(&tid);
  std::lock_guard<std::mutex> lock(st().mutex);
  ASSERT_EQ(st().asked.size(), 2u);
  EXPECT_EQ(st().asked[0].kind, ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH);
  EXPECT_EQ(st().asked[0].operation, 211);
  EXPECT_EQ(st().asked[0].internal, 7u);
  EXPECT_EQ(st().asked[0].tid, tid);
  EXPECT_EQ(st().asked[0].context, st().requests.handle);
  EXPECT_EQ(st().asked[1].kind, ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_CUDA_RUNTIME_API);
  EXPECT_EQ(st().asked[1].internal, call);
}

}  // namespace
