// A deterministic synthetic trace for writer tests and benchmarks: definitions plus N records of
// every record kind. Record i of a kind depends only on (options, i), so a benchmark can stream
// any number of records in fixed-size batches (generate_*) without holding them all, while a
// test can take the whole set at once (make_synthetic_trace) and feed it to a writer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "rocprof/trace/model.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::test_support {

struct synthetic_options {
  size_t records_per_kind = 100;  // N records of every kind (counter values: N as well)
  uint32_t threads = 4;           // tids pid+0 .. pid+threads-1 (the main thread is tid == pid)
  uint32_t gpus = 2;              // GPU agents; there is always one CPU agent first
  uint32_t kernels = 5;           // distinct kernel symbols
  uint32_t counters = 3;          // counters per GPU; 0: no counters defined (a trace-only run)
  int64_t pid = 4242;
  uint64_t base_ns = 1'000'000'000;  // first timestamp
};

struct synthetic_trace {
  trace::trace_definitions defs;
  std::vector<trace::api_record> api;
  std::vector<trace::kernel_dispatch_record> kernels;
  std::vector<trace::memory_copy_record> memory_copies;
  std::vector<trace::memory_set_record> memory_sets;
  std::vector<trace::memory_allocation_record> memory_allocations;
  std::vector<trace::scratch_memory_record> scratch_memory;
  std::vector<trace::counter_value_record> counter_values;
  std::vector<trace::counter_dispatch_record> counter_dispatches;
  std::vector<trace::device_counter_sample_record> device_counter_samples;
  std::vector<trace::pc_sample_record> pc_samples;
};

// The record tables of a trace as a tuple of references, in kind order, for code that loops over
// the kinds. synthetic_trace.cpp checks at compile time that this names every kind of the
// model's list once, in order (kinds appended by a test build have no synthetic records).
template <typename Trace>
auto record_tables(Trace& t) {
  static_assert(std::is_same_v<std::remove_const_t<Trace>, synthetic_trace>);
  return std::tie(t.api, t.kernels, t.memory_copies, t.memory_sets, t.memory_allocations,
                  t.scratch_memory, t.counter_values, t.counter_dispatches,
                  t.device_counter_samples, t.pc_samples);
}

// Definitions: node, process (with config_json and environment), threads, agents (CPU 0 then
// GPUs), queues, streams, code objects, kernel symbols, counters and the interned strings the
// records use.
trace::trace_definitions make_synthetic_definitions(const synthetic_options& options);

// The whole trace: make_synthetic_definitions plus records 0..N-1 of every kind.
synthetic_trace make_synthetic_trace(const synthetic_options& options);

// An argument list as --cuda-api-args records a copy call (`void* dst = 0xd000`, `size_t count =
// 4096`) with return value `retval`, interned in `defs`: its string id, for api_record::args.
trace::string_id add_copy_arguments(trace::trace_definitions& defs, int64_t retval);

// Records [first, first + count) of one kind, appended to out. API records cycle through every
// api_domain; marker records include marks (start == end) and ranges with messages. Kernel
// dispatch i has dispatch_id i + 1; counter value i belongs to dispatch i / counters + 1.
void generate_api(const synthetic_options& o, const trace::trace_definitions& defs, size_t first,
                  size_t count, std::vector<trace::api_record>& out);
void generate_kernels(const synthetic_options& o, size_t first, size_t count,
                      std::vector<trace::kernel_dispatch_record>& out);
void generate_memory_copies(const synthetic_options& o, size_t first, size_t count,
                            std::vector<trace::memory_copy_record>& out);
void generate_memory_sets(const synthetic_options& o, size_t first, size_t count,
                          std::vector<trace::memory_set_record>& out);
void generate_memory_allocations(const synthetic_options& o, const trace::trace_definitions& defs,
                                 size_t first, size_t count,
                                 std::vector<trace::memory_allocation_record>& out);
void generate_scratch_memory(const synthetic_options& o, size_t first, size_t count,
                             std::vector<trace::scratch_memory_record>& out);
void generate_counter_values(const synthetic_options& o, size_t first, size_t count,
                             std::vector<trace::counter_value_record>& out);
// Counted dispatch i describes kernel dispatch i (the same launch); none without counters.
void generate_counter_dispatches(const synthetic_options& o, size_t first, size_t count,
                                 std::vector<trace::counter_dispatch_record>& out);
void generate_device_counter_samples(const synthetic_options& o, size_t first, size_t count,
                                     std::vector<trace::device_counter_sample_record>& out);
void generate_pc_samples(const synthetic_options& o, const trace::trace_definitions& defs,
                         size_t first, size_t count, std::vector<trace::pc_sample_record>& out);

// Feeds a whole synthetic trace to a writer (begin, every kind in batches of batch_size,
// interleaved in kind order, finish) and returns finish()'s result.
std::string write_synthetic_trace(trace::writer& w, const synthetic_trace& t,
                                  size_t batch_size = 1000);

// Appends a string to the definitions' interned strings and returns its id (tests that add
// their own records' strings).
inline trace::string_id add_string(trace::trace_definitions& defs, std::string s) {
  defs.strings.push_back(std::move(s));
  return static_cast<trace::string_id>(defs.strings.size() - 1);
}

// An NVIDIA-style aggregated PC sample (pc_sampling.h's aggregated record as the CUDA backend
// fills it): `samples` samples at `offset` of code object 1 in `kernel`, `not_issued` of them
// issuing nothing, no per-sample detail, only the kernel known. Strings are the caller's.
inline trace::pc_sample_record aggregated_pc_sample(uint64_t agent, uint64_t kernel,
                                                    uint64_t offset, uint64_t samples,
                                                    uint64_t not_issued) {
  trace::pc_sample_record r;
  r.method = trace::pc_sample_method::stochastic;
  r.has_sample_detail = false;
  r.dispatch_exact = false;
  r.agent_id = agent;
  r.kernel_id = kernel;
  r.code_object_id = 1;
  r.code_object_offset = offset;
  r.sample_count = samples;
  r.not_issued_count = not_issued;
  r.wave_issued = not_issued < samples;
  return r;
}

// Agent handle of GPU g (0-based) and of the CPU agent, as used in the generated records.
uint64_t synthetic_gpu_agent_id(uint32_t g);
inline constexpr uint64_t synthetic_cpu_agent_id = 1;

}  // namespace rocprof::test_support
