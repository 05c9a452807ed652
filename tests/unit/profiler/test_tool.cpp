#include "test_tool.hpp"

#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>

namespace rocprof::test {
namespace {

bool is_marker_kind(uint32_t kind) {
  return kind == ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API ||
         kind == ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API ||
         kind == ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API ||
         kind == ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API;
}

void collect(rocprofiler_context_id_t, rocprofiler_buffer_id_t buffer,
             rocprofiler_record_header_t** headers, size_t count, void* data, uint64_t drops) {
  auto* c = static_cast<collector*>(data);
  std::unique_lock<std::mutex> lock(c->mutex);
  c->in_callback = true;
  c->changed.notify_all();
  c->changed.wait(lock, [c] { return !c->gate_closed; });
  if (c->try_flush_inside) {
    lock.unlock();
    c->flush_from_callback = rocprofiler_flush_buffer(buffer);
    lock.lock();
  }
  c->batch_sizes.push_back(count);
  c->delivery_tids.push_back(os_tid());
  c->drops += drops;
  for (size_t i = 0; i < count; ++i) {
    const rocprofiler_record_header_t* h = headers[i];
    if (h->category == ROCPROFILER_BUFFER_CATEGORY_TRACING &&
        h->kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH) {
      c->dispatches.push_back(
          *static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(h->payload));
      continue;
    }
    if (h->category != ROCPROFILER_BUFFER_CATEGORY_TRACING || !is_marker_kind(h->kind)) continue;
    const auto* rec =
        static_cast<const rocprofiler_buffer_tracing_marker_api_record_t*>(h->payload);
    ++c->total;
    if (c->count_only) {
      if (rec->operation == ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA)
        ++c->per_thread_ranges[rec->thread_id];
      continue;
    }
    marker_copy m;
    m.record = *rec;
    m.message = rec->message != nullptr ? rec->message : "";
    m.domain = rec->domain != nullptr ? rec->domain : "";
    c->markers.push_back(m);
  }
  c->in_callback = false;
  c->changed.notify_all();
}

void on_callback(rocprofiler_callback_tracing_record_t rec, rocprofiler_user_data_t* user_data,
                 void* data) {
  auto* t = static_cast<tool_state*>(data);
  callback_event e;
  e.kind = rec.kind;
  e.operation = rec.operation;
  e.phase = rec.phase;
  e.correlation = rec.correlation_id;
  e.thread_id = rec.thread_id;
  e.user_data_at_call = user_data->value;
  // The tool's per-call state: set at ENTER, must come back at EXIT.
  if (rec.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
    user_data->value = rec.correlation_id.internal * 10;
  if (rec.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API) {
    const auto* p = static_cast<const rocprofiler_callback_tracing_marker_api_data_t*>(rec.payload);
    const char* msg = rec.operation == ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA
                          ? p->args.roctxProcessRangeA.message
                          : p->args.roctxThreadRangeA.message;
    e.message = msg != nullptr ? msg : "";
  }
  std::lock_guard<std::mutex> lock(t->callback_mutex);
  t->callbacks.push_back(e);
}

void on_api_callback(rocprofiler_callback_tracing_record_t rec, rocprofiler_user_data_t*,
                     void* data) {
  auto* c = static_cast<collector*>(data);
  callback_event e;
  e.kind = rec.kind;
  e.operation = rec.operation;
  e.phase = rec.phase;
  e.correlation = rec.correlation_id;
  e.thread_id = rec.thread_id;
  std::lock_guard<std::mutex> lock(c->mutex);
  c->api_callbacks.push_back(e);
}

#define CHECK_OK(call)                                                    \
  do {                                                                    \
    const rocprofiler_status_t rc_ = (call);                              \
    if (rc_ != ROCPROFILER_STATUS_SUCCESS) {                              \
      ADD_FAILURE() << #call << ": " << rocprofiler_get_status_name(rc_); \
      return 1;                                                           \
    }                                                                     \
  } while (0)

int make_buffer(rocprofiler_context_id_t* ctx, rocprofiler_buffer_id_t* buf, size_t size,
                size_t watermark, rocprofiler_buffer_policy_t policy, collector* c) {
  CHECK_OK(rocprofiler_create_context(ctx));
  CHECK_OK(rocprofiler_create_buffer(*ctx, size, watermark, policy, collect, c, buf));
  return 0;
}

int initialize(rocprofiler_client_finalize_t, void* data) {
  auto* t = static_cast<tool_state*>(data);
  ++t->initialize_calls;
  t->initializer_tid = os_tid();
  constexpr auto range_kind = ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API;

  if (make_buffer(&t->range_ctx, &t->range_buf, 64 * 1024, 60 * 1024,
                  ROCPROFILER_BUFFER_POLICY_LOSSLESS, &t->range) != 0)
    return 1;
  for (auto kind :
       {ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API,
        ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API, ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API,
        ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API})
    CHECK_OK(
        rocprofiler_configure_buffer_tracing_service(t->range_ctx, kind, nullptr, 0, t->range_buf));
  t->second_configure_status = rocprofiler_configure_buffer_tracing_service(
      t->range_ctx, range_kind, nullptr, 0, t->range_buf);

  CHECK_OK(rocprofiler_create_context(&t->callback_ctx));
  for (auto kind : {ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API,
                    ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API})
    CHECK_OK(rocprofiler_configure_callback_tracing_service(t->callback_ctx, kind, nullptr, 0,
                                                            on_callback, t));
  rocprofiler_context_id_t nonzero{42};
  t->nonzero_context_status = rocprofiler_create_context(&nonzero);

  if (make_buffer(&t->watermark_ctx, &t->watermark_buf, 4096, 2048,
                  ROCPROFILER_BUFFER_POLICY_LOSSLESS, &t->watermark) != 0)
    return 1;
  CHECK_OK(rocprofiler_configure_buffer_tracing_service(t->watermark_ctx, range_kind, nullptr, 0,
                                                        t->watermark_buf));

  if (make_buffer(&t->discard_ctx, &t->discard_buf, 4096, 4096, ROCPROFILER_BUFFER_POLICY_DISCARD,
                  &t->discard) != 0)
    return 1;
  CHECK_OK(rocprofiler_configure_buffer_tracing_service(t->discard_ctx, range_kind, nullptr, 0,
                                                        t->discard_buf));

  if (make_buffer(&t->filter_ctx, &t->filter_buf, 4096, 4096, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                  &t->filter) != 0)
    return 1;
  const rocprofiler_tracing_operation_t marks_only[] = {
      ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxMarkA};
  CHECK_OK(rocprofiler_configure_buffer_tracing_service(t->filter_ctx, range_kind, marks_only, 1,
                                                        t->filter_buf));

  if (make_buffer(&t->thread_ctx, &t->thread_buf, 4096, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                  &t->thread) != 0)
    return 1;
  CHECK_OK(rocprofiler_configure_buffer_tracing_service(t->thread_ctx, range_kind, nullptr, 0,
                                                        t->thread_buf));
  CHECK_OK(rocprofiler_create_callback_thread(&t->dedicated_thread));
  CHECK_OK(rocprofiler_assign_callback_thread(t->thread_buf, t->dedicated_thread));

  // A GPU-style context: kernel records and CUDA API callbacks, served by the test backend
  // (its manifest lists both kinds, so configuring them loads it).
  if (make_buffer(&t->backend_ctx, &t->backend_buf, 4096, 4096, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                  &t->backend) != 0)
    return 1;
  CHECK_OK(rocprofiler_configure_buffer_tracing_service(
      t->backend_ctx, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, t->backend_buf));
  CHECK_OK(rocprofiler_configure_callback_tracing_service(
      t->backend_ctx, ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API, nullptr, 0, on_api_callback,
      &t->backend));

  t->many.count_only = true;
  if (make_buffer(&t->many_ctx, &t->many_buf, 64 * 1024, 60 * 1024,
                  ROCPROFILER_BUFFER_POLICY_LOSSLESS, &t->many) != 0)
    return 1;
  CHECK_OK(rocprofiler_configure_buffer_tracing_service(t->many_ctx, range_kind, nullptr, 0,
                                                        t->many_buf));
  return 0;
}

rocprofiler_tool_configure_result_t* configure(uint32_t version, const char*, uint32_t priority,
                                               rocprofiler_client_id_t* id) {
  id->name = "core-unit-tests";
  tool().configure_version = version;
  tool().configure_priority = priority;
  static rocprofiler_tool_configure_result_t result{sizeof(result), initialize, nullptr, &tool()};
  return &result;
}

class core_environment : public ::testing::Environment {
 public:
  void SetUp() override {
    // Backends come from the test's own plugin directory, never from the build's lib/.
    setenv("ROCPROF_BACKEND_DIR", ROCPROF_TEST_BACKEND_DIR, 1);
    ASSERT_EQ(rocprofiler_force_configure(configure), ROCPROFILER_STATUS_SUCCESS);
  }
};

[[maybe_unused]] ::testing::Environment* const g_environment =
    ::testing::AddGlobalTestEnvironment(new core_environment());

}  // namespace

tool_state& tool() {
  static tool_state t;
  return t;
}

void collector::clear() {
  std::lock_guard<std::mutex> lock(mutex);
  markers.clear();
  dispatches.clear();
  api_callbacks.clear();
  batch_sizes.clear();
  delivery_tids.clear();
  per_thread_ranges.clear();
  drops = 0;
  total = 0;
}

std::vector<marker_copy> collector::of_kind(rocprofiler_buffer_tracing_kind_t kind) {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<marker_copy> out;
  for (const marker_copy& m : markers)
    if (m.record.kind == kind) out.push_back(m);
  return out;
}

size_t collector::delivered_records() {
  std::lock_guard<std::mutex> lock(mutex);
  return markers.size();
}

context_guard::context_guard(rocprofiler_context_id_t ctx) : ctx_(ctx) {
  EXPECT_EQ(rocprofiler_start_context(ctx_), ROCPROFILER_STATUS_SUCCESS);
}

context_guard::~context_guard() {
  rocprofiler_stop_context(ctx_);
}

void reset(rocprofiler_buffer_id_t buffer, collector& c) {
  EXPECT_EQ(rocprofiler_flush_buffer(buffer), ROCPROFILER_STATUS_SUCCESS);
  c.clear();
}

uint64_t os_tid() {
  return static_cast<uint64_t>(syscall(SYS_gettid));
}

}  // namespace rocprof::test
