// No exception crosses the C API: allocation failure injected into rocprofiler_create_context,
// rocprofiler_create_buffer and a marker call, and thread creation failing under
// rocprofiler_create_buffer (the default delivery thread) and rocprofiler_create_callback_thread.
// Each call returns an error status (or ROCTx's error value) and the process goes on: the same
// calls succeed once the failure is lifted, and records still arrive.
//
// This executable replaces the global operator new and interposes pthread_create (both reach
// the core through the dynamic linker); each fails only on a thread that armed it, so that
// delivery threads and GoogleTest allocate normally. Configuration is allowed only inside a
// tool's initialize, which runs once per process: the scenarios that need it run there and
// record their outcomes, and the tests check them.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <rocprofiler-sdk-roctx/roctx.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

thread_local bool t_fail_allocations = false;
thread_local bool t_fail_thread_creation = false;

// Arms a failure on the calling thread for the guard's lifetime.
class armed {
 public:
  explicit armed(bool& flag) : flag_(flag) { flag_ = true; }
  ~armed() { flag_ = false; }
  armed(const armed&) = delete;
  armed& operator=(const armed&) = delete;

 private:
  bool& flag_;
};

void* allocate(std::size_t size) {
  if (t_fail_allocations) throw std::bad_alloc();
  if (void* p = std::malloc(size != 0 ? size : 1)) return p;
  throw std::bad_alloc();
}

}  // namespace

// Replaceable allocation functions (the aligned ones stay the library's: they never fail here).
void* operator new(std::size_t size) {
  return allocate(size);
}
void* operator new[](std::size_t size) {
  return allocate(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return t_fail_allocations ? nullptr : std::malloc(size != 0 ? size : 1);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return t_fail_allocations ? nullptr : std::malloc(size != 0 ? size : 1);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}

// std::thread reaches pthread_create through the dynamic linker, so this definition wins.
extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*),
                              void* arg) {
  using create_fn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
  static const auto real = reinterpret_cast<create_fn>(dlsym(RTLD_NEXT, "pthread_create"));
  if (t_fail_thread_creation) return EAGAIN;
  return real(thread, attr, start, arg);
}

namespace {

// A buffer callback that copies marker messages, and throws on request (a C++ tool's bug
// must not end the delivery thread).
struct collector {
  std::mutex mutex;
  std::vector<std::string> messages;
  bool throw_next = false;
  int deliveries = 0;
};

void collect(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
             rocprofiler_record_header_t** headers, size_t count, void* data, uint64_t) {
  auto* c = static_cast<collector*>(data);
  std::lock_guard<std::mutex> lock(c->mutex);
  ++c->deliveries;
  if (c->throw_next) {
    c->throw_next = false;
    throw std::runtime_error("the tool's buffer callback failed");
  }
  for (size_t i = 0; i < count; ++i) {
    if (headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING ||
        headers[i]->kind != ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API)
      continue;
    const auto* r =
        static_cast<const rocprofiler_buffer_tracing_marker_api_record_t*>(headers[i]->payload);
    c->messages.emplace_back(r->message != nullptr ? r->message : "");
  }
}

// What happened inside the tool's initialize.
struct outcomes {
  rocprofiler_status_t context_without_memory = ROCPROFILER_STATUS_SUCCESS;
  uint64_t context_handle_without_memory = 0;
  rocprofiler_status_t context_afterwards = ROCPROFILER_STATUS_ERROR;
  rocprofiler_status_t buffer_without_memory = ROCPROFILER_STATUS_SUCCESS;
  rocprofiler_status_t buffer_without_threads = ROCPROFILER_STATUS_SUCCESS;
  rocprofiler_status_t callback_thread_without_threads = ROCPROFILER_STATUS_SUCCESS;
  rocprofiler_status_t buffer_afterwards = ROCPROFILER_STATUS_ERROR;
  rocprofiler_status_t callback_thread_afterwards = ROCPROFILER_STATUS_ERROR;
  rocprofiler_status_t service_afterwards = ROCPROFILER_STATUS_ERROR;
  rocprofiler_context_id_t context{};
  rocprofiler_buffer_id_t buffer{};
  collector received;
};

outcomes& state() {
  static outcomes o;
  return o;
}

int initialize(rocprofiler_client_finalize_t, void*) {
  outcomes& o = state();
  {
    rocprofiler_context_id_t ctx{};
    {
      armed no_memory{t_fail_allocations};
      o.context_without_memory = rocprofiler_create_context(&ctx);
    }
    o.context_handle_without_memory = ctx.handle;
  }
  o.context_afterwards = rocprofiler_create_context(&o.context);
  auto create_buffer = [&o](rocprofiler_buffer_id_t* id) {
    return rocprofiler_create_buffer(o.context, 4096, 4096, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                     collect, &o.received, id);
  };
  {
    rocprofiler_buffer_id_t unused{};
    armed no_memory{t_fail_allocations};
    o.buffer_without_memory = create_buffer(&unused);
  }
  {
    // The first buffer starts the default delivery thread.
    rocprofiler_buffer_id_t unused{};
    armed no_threads{t_fail_thread_creation};
    o.buffer_without_threads = create_buffer(&unused);
  }
  {
    rocprofiler_callback_thread_t unused{};
    armed no_threads{t_fail_thread_creation};
    o.callback_thread_without_threads = rocprofiler_create_callback_thread(&unused);
  }
  o.buffer_afterwards = create_buffer(&o.buffer);
  rocprofiler_callback_thread_t dedicated{};
  o.callback_thread_afterwards = rocprofiler_create_callback_thread(&dedicated);
  o.service_afterwards = rocprofiler_configure_buffer_tracing_service(
      o.context, ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API, nullptr, 0, o.buffer);
  return 0;
}

rocprofiler_tool_configure_result_t* configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  id->name = "c-boundary-tests";
  static rocprofiler_tool_configure_result_t result{sizeof(result), initialize, nullptr, nullptr};
  return &result;
}

class configured_environment : public ::testing::Environment {
 public:
  void SetUp() override {
    ASSERT_EQ(rocprofiler_force_configure(configure), ROCPROFILER_STATUS_SUCCESS);
  }
};

[[maybe_unused]] ::testing::Environment* const g_environment =
    ::testing::AddGlobalTestEnvironment(new configured_environment());

std::vector<std::string> delivered() {
  EXPECT_EQ(rocprofiler_flush_buffer(state().buffer), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(state().received.mutex);
  std::vector<std::string> out;
  out.swap(state().received.messages);
  return out;
}

TEST(c_boundary, create_context_without_memory_returns_a_status) {
  EXPECT_EQ(state().context_without_memory, ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES);
  EXPECT_EQ(state().context_handle_without_memory, 0u) << "no context was handed out";
  EXPECT_EQ(state().context_afterwards, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_NE(state().context.handle, 0u);
}

TEST(c_boundary, create_buffer_without_memory_returns_a_status) {
  EXPECT_EQ(state().buffer_without_memory, ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES);
}

TEST(c_boundary, failed_thread_creation_returns_a_status_and_is_tried_again) {
  EXPECT_EQ(state().buffer_without_threads, ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES);
  EXPECT_EQ(state().callback_thread_without_threads, ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES);
  EXPECT_EQ(state().buffer_afterwards, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(state().callback_thread_afterwards, ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(state().service_afterwards, ROCPROFILER_STATUS_SUCCESS);
}

TEST(c_boundary, marker_without_memory_returns_roctx_error_and_recording_goes_on) {
  ASSERT_EQ(rocprofiler_start_context(state().context), ROCPROFILER_STATUS_SUCCESS);
  roctxMarkA("before");  // the thread's state exists before the failure
  int failed = 0;
  {
    // A message never seen before: interning it allocates.
    armed no_memory{t_fail_allocations};
    failed = roctxRangePushA("a message the core has not seen yet");
  }
  EXPECT_EQ(failed, -1) << "ROCTx's error value for a push";
  // The application pops what it pushed: the failed range leaves nothing behind.
  EXPECT_EQ(roctxRangePop(), 0);
  EXPECT_EQ(roctxRangePushA("after"), 0);
  EXPECT_EQ(roctxRangePop(), 0);
  {
    armed no_memory{t_fail_allocations};
    failed = static_cast<int>(roctxRangeStartA("another message the core has not seen"));
  }
  EXPECT_EQ(failed, 0) << "range id 0: no range";
  ASSERT_EQ(rocprofiler_stop_context(state().context), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(delivered(), (std::vector<std::string>{"before", "after"}));
}

TEST(c_boundary, a_throwing_buffer_callback_does_not_end_delivery) {
  ASSERT_EQ(rocprofiler_start_context(state().context), ROCPROFILER_STATUS_SUCCESS);
  {
    std::lock_guard<std::mutex> lock(state().received.mutex);
    state().received.throw_next = true;
  }
  roctxMarkA("lost with the failed callback");
  EXPECT_TRUE(delivered().empty());
  roctxMarkA("delivered");
  ASSERT_EQ(rocprofiler_stop_context(state().context), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(delivered(), std::vector<std::string>{"delivered"});
}

}  // namespace
