// A CUDA program whose GPU work is known exactly, for the CUDA backend's end-to-end tests:
// plain and templated kernels on two streams, copies of known sizes in every direction,
// memsets, device and pinned allocations, a CUDA graph launched twice, and NVTX ranges.
// The last line it prints is "CUDA_APP_SUMMARY {json}" with the counts it made, which the tests
// compare with what the profiler recorded. One direct driver call (cuDriverGetVersion, through
// dlopen: the static cudart keeps the program free of a libcuda link) is the application's own:
// traced by default, unlike the driver calls the runtime makes inside its calls.
//   cuda_app queries   also asks, before each launch, for the current device and the last
//                      error (cudaGetDevice, cudaGetLastError), as frameworks do: the state
//                      queries the API trace leaves out by default. Everything else is the same.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(expr)                                                                         \
  do {                                                                                      \
    cudaError_t err_ = (expr);                                                              \
    if (err_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "cuda_app: %s failed at %s:%d: %s\n", #expr, __FILE__, __LINE__, \
                   cudaGetErrorString(err_));                                               \
      std::exit(2);                                                                         \
    }                                                                                       \
  } while (0)

__global__ void vec_add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

template <typename T>
__global__ void fill(T* out, T value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

namespace {

constexpr int n = 1 << 18;                   // elements per buffer
constexpr size_t bytes = n * sizeof(float);  // 1 MiB
constexpr size_t async_bytes = 256 * 1024;   // pinned H2D on stream 1
constexpr size_t d2d_bytes = 512 * 1024;
constexpr size_t h2h_bytes = 64 * 1024;
constexpr size_t graph_copy_bytes = 4 * 1024;  // D2D node of the graph
constexpr size_t memset_async_bytes = 128 * 1024;
constexpr int threads = 256;
constexpr int blocks = n / threads;

struct counts {
  int plain = 0, templated_float = 0, templated_int = 0;
  int graph_launches = 0, graph_kernels = 0, graph_copies = 0;
  int h2d = 0, d2h = 0, d2d = 0, h2h = 0, memsets = 0, device_allocs = 0, pinned_allocs = 0;
  int launch_calls = 0;
  int captured_launch_calls = 0;  // cudaLaunchKernel calls made while capturing the graph
};

// With `queries` (main's argument): the state queries a framework makes before a launch.
bool g_state_queries = false;

void ask_state_like_a_framework() {
  if (!g_state_queries) return;
  int device = -1;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaGetLastError());
}

void launch_vec_add(counts& c, const float* a, const float* b, float* out, cudaStream_t s) {
  ask_state_like_a_framework();
  int count = n;
  void* args[] = {&a, &b, &out, &count};
  CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(&vec_add), dim3(blocks), dim3(threads), args,
                         0, s));
  ++c.plain;
  ++c.launch_calls;
}

template <typename T>
void launch_fill(counts& c, T* out, T value, cudaStream_t s) {
  ask_state_like_a_framework();
  int count = n;
  void* args[] = {&out, &value, &count};
  CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(&fill<T>), dim3(blocks), dim3(threads), args,
                         0, s));
  ++(sizeof(T) == sizeof(float) && static_cast<T>(0.5) != 0 ? c.templated_float : c.templated_int);
  ++c.launch_calls;
}

}  // namespace

int main(int argc, char** argv) {
  g_state_queries = argc > 1 && std::strcmp(argv[1], "queries") == 0;
  counts c;
  nvtxRangePushA("cuda_app:setup");
  cudaStream_t s1 = nullptr, s2 = nullptr;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  CHECK(cudaMalloc(&da, bytes));
  CHECK(cudaMalloc(&db, bytes));
  CHECK(cudaMalloc(&dc, bytes));
  c.device_allocs += 3;
  float* pinned = nullptr;
  CHECK(cudaMallocHost(&pinned, bytes));
  c.pinned_allocs += 1;
  float* host = static_cast<float*>(std::malloc(bytes));
  float* host2 = static_cast<float*>(std::malloc(bytes));
  for (int i = 0; i < n; ++i)
    host[i] = pinned[i] = static_cast<float>(i);
  nvtxRangePop();

  int direct_driver_calls = 0;
  if (void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) {
    using version_fn = int (*)(int*);
    if (auto version = reinterpret_cast<version_fn>(dlsym(driver, "cuDriverGetVersion"))) {
      int v = 0;
      if (version(&v) == 0) ++direct_driver_calls;
    }
    dlclose(driver);
  }

  nvtxRangePushA("cuda_app:copies");
  CHECK(cudaMemcpy(da, host, bytes, cudaMemcpyHostToDevice));
  ++c.h2d;
  CHECK(cudaMemcpyAsync(db, pinned, async_bytes, cudaMemcpyHostToDevice, s1));
  ++c.h2d;
  CHECK(cudaMemset(dc, 0, bytes));
  ++c.memsets;
  CHECK(cudaMemsetAsync(db, 0, memset_async_bytes, s2));
  ++c.memsets;
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(dc, da, d2d_bytes, cudaMemcpyDeviceToDevice));
  ++c.d2d;
  CHECK(cudaMemcpy(host2, pinned, h2h_bytes, cudaMemcpyHostToHost));
  ++c.h2h;
  nvtxRangePop();

  nvtxRangePushA("cuda_app:kernels");
  launch_vec_add(c, da, db, dc, s1);
  launch_vec_add(c, da, db, dc, s1);
  launch_vec_add(c, db, da, dc, s2);
  launch_vec_add(c, db, da, dc, s2);
  launch_fill<float>(c, da, 1.5F, s1);
  launch_fill<float>(c, db, 2.5F, s2);
  launch_fill<int>(c, reinterpret_cast<int*>(dc), 7, s1);
  nvtxMarkA("cuda_app:kernels launched");
  CHECK(cudaStreamSynchronize(s1));
  CHECK(cudaStreamSynchronize(s2));
  nvtxRangePop();

  // A graph captured from stream 1: two kernels and one device-to-device copy, launched twice.
  nvtxRangePushA("cuda_app:graph");
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  counts ignored;  // captured launches are not launches of their own
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  launch_vec_add(ignored, da, db, dc, s1);
  launch_fill<float>(ignored, db, 3.5F, s1);
  CHECK(cudaMemcpyAsync(da, dc, graph_copy_bytes, cudaMemcpyDeviceToDevice, s1));
  CHECK(cudaStreamEndCapture(s1, &graph));
  c.captured_launch_calls = ignored.launch_calls;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 2; ++i) {
    CHECK(cudaGraphLaunch(exec, s1));
    ++c.graph_launches;
    c.graph_kernels += 2;
    c.graph_copies += 1;
  }
  CHECK(cudaStreamSynchronize(s1));
  nvtxRangePop();

  CHECK(cudaMemcpy(host2, dc, bytes, cudaMemcpyDeviceToHost));
  ++c.d2h;

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  std::free(host);
  std::free(host2);

  const int kernels = c.plain + c.templated_float + c.templated_int + c.graph_kernels;
  std::printf(
      "CUDA_APP_SUMMARY {\"kernels\": %d, \"plain_kernels\": %d, \"templated_float_kernels\": %d, "
      "\"templated_int_kernels\": %d, \"graph_launches\": %d, \"graph_kernels\": %d, "
      "\"launch_calls\": %d, \"captured_launch_calls\": %d, \"streams\": 2, "
      "\"h2d\": %d, \"d2h\": %d, \"d2d\": %d, \"h2h\": %d, \"graph_copies\": %d, "
      "\"h2d_bytes\": [%zu, %zu], \"d2h_bytes\": [%zu], \"d2d_bytes\": [%zu], "
      "\"graph_copy_bytes\": %zu, \"h2h_bytes\": [%zu], "
      "\"memsets\": %d, \"memset_bytes\": [%zu, %zu], "
      "\"device_allocations\": %d, \"pinned_allocations\": %d, \"allocation_bytes\": %zu, "
      "\"nvtx_ranges\": 4, \"direct_driver_calls\": %d}\n",
      kernels, c.plain, c.templated_float, c.templated_int, c.graph_launches, c.graph_kernels,
      c.launch_calls, c.captured_launch_calls, c.h2d, c.d2h, c.d2d, c.h2h, c.graph_copies, bytes,
      async_bytes, bytes, d2d_bytes, graph_copy_bytes, h2h_bytes, c.memsets, bytes,
      memset_async_bytes, c.device_allocs, c.pinned_allocs, bytes, direct_driver_calls);
  return 0;
}
