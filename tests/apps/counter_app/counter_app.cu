// A CUDA program whose per-kernel counter values are known, for the counter checks on the GPU
// machine (tests/integration/counters): a streaming copy of known size, an FMA kernel with a
// known number of FFMA instructions per thread, vec_add with a known number of warps, and a
// CUDA graph of two kernel nodes around a device-to-device copy node; ~200 kernels in all.
//
//   counter_app [--iterations N] [--graph-launches G] [--no-graph] [--parallel-graph]
//
// --parallel-graph captures the graph's two kernels on parallel branches (forked from one
// stream, joined by an event) and no copy node, instead of the chain kernel -> copy -> kernel.
//
// Before the work it prints one "COUNTER_APP_EXPECT {json}" line per kernel name with the
// values each dispatch of it must give: warps (smsp__warps_launched.sum, SQ_WAVES), ffma (thread
// FFMA instructions, smsp__sass_thread_inst_executed_op_ffma_pred_on.sum), dram_read /
// dram_write (bytes the kernel moves from / to DRAM, FETCH_SIZE / WRITE_SIZE x 1024), and how
// many dispatches it makes; the last line is "COUNTER_APP_SUMMARY {json}".
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(expr)                                                                            \
  do {                                                                                         \
    cudaError_t err_ = (expr);                                                                 \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "counter_app: %s failed at %s:%d: %s\n", #expr, __FILE__, __LINE__, \
                   cudaGetErrorString(err_));                                                  \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

constexpr int fma_iterations = 1024;  // per thread, 4 FFMA each

__global__ void stream_copy(const float4* in, float4* out, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// Evicts the L2 (50 MB on the H100) between the fill and the copy, so the copy reads from DRAM.
__global__ void touch(const float4* in, float* sink, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n && in[i].x == 12345.0f) *sink = in[i].y;
}

__global__ void fill(float* out, float value, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = value;
}

// Four independent FFMA chains: fma_iterations * 4 FFMA per thread, no other FP work.
__global__ void fma_loop(float* out, float a, float b) {
  float x0 = threadIdx.x, x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;
#pragma unroll 1
  for (int i = 0; i < fma_iterations; ++i) {
    x0 = fmaf(x0, a, b);
    x1 = fmaf(x1, a, b);
    x2 = fmaf(x2, a, b);
    x3 = fmaf(x3, a, b);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3;
}

__global__ void vec_add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

namespace {

constexpr size_t copy_bytes = size_t{256} << 20;  // per buffer: 5x the H100's L2
constexpr size_t copy_vectors = copy_bytes / sizeof(float4);
constexpr int copy_threads = 256;
constexpr int fma_blocks = 64, fma_threads = 128;  // 256 warps
constexpr int add_n = 1 << 22;                     // 4 Mi floats: 16 MiB per buffer
constexpr int add_threads = 256;
constexpr size_t graph_copy_bytes = size_t{16} << 20;

void expect(const char* kernel, unsigned long long dispatches, unsigned long long warps,
            unsigned long long ffma, unsigned long long dram_read, unsigned long long dram_write) {
  std::printf(
      "COUNTER_APP_EXPECT {\"kernel\": \"%s\", \"dispatches\": %llu, \"warps\": %llu, "
      "\"ffma\": %llu, \"dram_read\": %llu, \"dram_write\": %llu}\n",
      kernel, dispatches, warps, ffma, dram_read, dram_write);
}

}  // namespace

int main(int argc, char** argv) {
  int iterations = 80, graph_launches = 20;
  bool graph = true, parallel_graph = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--iterations") == 0 && i + 1 < argc)
      iterations = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--graph-launches") == 0 && i + 1 < argc)
      graph_launches = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--no-graph") == 0)
      graph = false;
    else if (std::strcmp(argv[i], "--parallel-graph") == 0)
      parallel_graph = true;
  }
  if (!graph) graph_launches = 0;

  const unsigned long long copy_blocks = (copy_vectors + copy_threads - 1) / copy_threads;
  const unsigned long long add_blocks = (add_n + add_threads - 1) / add_threads;
  expect("stream_copy", 1, copy_blocks * copy_threads / 32, 0, copy_bytes, copy_bytes);
  expect("fma_loop", iterations + graph_launches, fma_blocks * fma_threads / 32,
         1ull * fma_blocks * fma_threads * fma_iterations * 4, 0, 0);
  expect("vec_add", iterations + graph_launches, add_blocks * add_threads / 32, 0, 0, 0);

  float4 *src = nullptr, *dst = nullptr, *evict = nullptr;
  float *sink = nullptr, *fma_out = nullptr, *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;
  CHECK(cudaMalloc(&src, copy_bytes));
  CHECK(cudaMalloc(&dst, copy_bytes));
  CHECK(cudaMalloc(&evict, copy_bytes));
  CHECK(cudaMalloc(&sink, sizeof(float)));
  CHECK(cudaMalloc(&fma_out, fma_blocks * fma_threads * sizeof(float)));
  for (float** p : {&a, &b, &c, &d})
    CHECK(cudaMalloc(p, add_n * sizeof(float)));
  int kernels = 0;

  const size_t floats = copy_bytes / sizeof(float);
  const unsigned fill_blocks = static_cast<unsigned>((floats + 255) / 256);
  fill<<<fill_blocks, 256>>>(reinterpret_cast<float*>(src), 1.0f, floats);
  fill<<<fill_blocks, 256>>>(reinterpret_cast<float*>(evict), 2.0f, floats);
  touch<<<static_cast<unsigned>(copy_blocks), copy_threads>>>(evict, sink, copy_vectors);
  stream_copy<<<static_cast<unsigned>(copy_blocks), copy_threads>>>(src, dst, copy_vectors);
  kernels += 4;
  CHECK(cudaDeviceSynchronize());
  fill<<<add_blocks, add_threads>>>(a, 1.0f, add_n);
  fill<<<add_blocks, add_threads>>>(b, 2.0f, add_n);
  kernels += 2;
  for (int i = 0; i < iterations; ++i) {
    vec_add<<<add_blocks, add_threads>>>(a, b, c, add_n);
    fma_loop<<<fma_blocks, fma_threads>>>(fma_out, 1.0001f, 0.5f);
    kernels += 2;
  }
  CHECK(cudaDeviceSynchronize());

  if (graph_launches > 0) {
    cudaStream_t s = nullptr;
    CHECK(cudaStreamCreate(&s));
    cudaGraph_t g = nullptr;
    cudaGraphExec_t exec = nullptr;
    cudaStream_t branch = nullptr;
    cudaEvent_t fork = nullptr, join = nullptr;
    CHECK(cudaStreamCreate(&branch));
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    if (parallel_graph) {
      // vec_add on s || fma_loop on branch, joined on s
      CHECK(cudaEventRecord(fork, s));
      CHECK(cudaStreamWaitEvent(branch, fork, 0));
      vec_add<<<add_blocks, add_threads, 0, s>>>(a, b, c, add_n);
      fma_loop<<<fma_blocks, fma_threads, 0, branch>>>(fma_out, 1.0001f, 0.5f);
      CHECK(cudaEventRecord(join, branch));
      CHECK(cudaStreamWaitEvent(s, join, 0));
    } else {
      vec_add<<<add_blocks, add_threads, 0, s>>>(a, b, c, add_n);
      CHECK(cudaMemcpyAsync(d, c, graph_copy_bytes, cudaMemcpyDeviceToDevice, s));
      fma_loop<<<fma_blocks, fma_threads, 0, s>>>(fma_out, 1.0001f, 0.5f);
    }
    CHECK(cudaStreamEndCapture(s, &g));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    for (int i = 0; i < graph_launches; ++i) {
      CHECK(cudaGraphLaunch(exec, s));
      kernels += 2;
    }
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaEventDestroy(fork));
    CHECK(cudaEventDestroy(join));
    CHECK(cudaStreamDestroy(branch));
    CHECK(cudaStreamDestroy(s));
  }
  CHECK(cudaDeviceSynchronize());
  std::printf(
      "COUNTER_APP_SUMMARY {\"kernels\": %d, \"graph_launches\": %d, \"graph_kernels\": %d, "
      "\"iterations\": %d}\n",
      kernels, graph_launches, 2 * graph_launches, iterations);
  for (void* p : {static_cast<void*>(src), static_cast<void*>(dst), static_cast<void*>(evict),
                  static_cast<void*>(sink), static_cast<void*>(fma_out), static_cast<void*>(a),
                  static_cast<void*>(b), static_cast<void*>(c), static_cast<void*>(d)})
    CHECK(cudaFree(p));
  return 0;
}
