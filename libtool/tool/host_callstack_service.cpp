#include "host_callstack_service.hpp"

#include <rocprofiler-sdk/rocprofiler.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "stack_table.hpp"
#include "symbolizer.hpp"
#include "tool_state.hpp"
#include "unwind.hpp"

namespace rocprof::tool {
namespace {

// Sizes: 64 Ki distinct stacks of 16 frames on average (9 MiB, allocated when the option is
// on), 16 Mi launches in the log (256 MiB of address space, resident only as launches fill it).
constexpr uint32_t max_stacks = 1u << 16;
constexpr size_t max_total_frames = size_t{max_stacks} * 16;
constexpr size_t max_launches = size_t{1} << 24;

// Leading frames in these modules are the profiler's (tool, core, CUDA plugin, CUPTI), the
// unwinder's, and the CUDA driver's own way down to the callback: never the application's.
constexpr std::string_view skipped_module_prefixes[] = {"librocprofiler-sdk", "libcupti",
                                                        "libgcc_s", "libunwind", "libcuda.so"};

struct callstack_state {
  callstack::stack_table table{max_stacks, max_total_frames};
  callstack::launch_log log{max_launches};
  std::once_flag skip_once;
  callstack::skip_ranges skip;
  std::atomic<bool> full_reported{false};
};

callstack_state* g_state = nullptr;  // set once at initialisation; never freed
thread_local uint32_t t_launch_depth = 0;

void on_launch(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*) {
  callstack_state& st = *g_state;
  if (record.phase == ROCPROFILER_CALLBACK_PHASE_EXIT) {
    if (t_launch_depth > 0) --t_launch_depth;
    return;
  }
  if (record.phase != ROCPROFILER_CALLBACK_PHASE_ENTER) return;
  // Only the outermost launch call of a thread: a runtime launch's own driver launch (traced
  // when ROCPROF_CUDA_NESTED_DRIVER_API is set) has the same stack and no work of its own.
  if (t_launch_depth++ > 0) return;
  // The modules are all loaded by the first launch (the plugin and CUPTI deliver it).
  std::call_once(st.skip_once, [&st] {
    st.skip =
        callstack::ranges_of_modules(skipped_module_prefixes, std::size(skipped_module_prefixes));
  });
  uintptr_t frames[callstack::max_frames];
  const uint32_t depth = callstack::capture_stack(frames, callstack::max_frames, st.skip);
  const uint32_t id = st.table.intern(frames, depth);
  const bool logged = id != 0 && st.log.append(record.correlation_id.internal, id);
  if (!logged && !st.full_reported.exchange(true, std::memory_order_relaxed))
    std::fprintf(stderr,
                 "rocprofv3: a kernel launch keeps no host call stack (a table is full or "
                 "nothing was unwound; the counts are reported at the end)\n");
}

struct operation_filter {
  rocprofiler_callback_tracing_kind_t kind;
  std::vector<rocprofiler_tracing_operation_t> ops;
};

// Launches of GPU work: runtime and driver operations named "...Launch..." (cudaLaunchKernel,
// cuLaunchKernelEx, cudaGraphLaunch, cudaLaunchCooperativeKernel, ...), host functions aside.
int collect_launch_ops(rocprofiler_callback_tracing_kind_t kind, rocprofiler_tracing_operation_t op,
                       void* data) {
  const char* name = nullptr;
  if (rocprofiler_query_callback_tracing_kind_operation_name(kind, op, &name, nullptr) !=
          ROCPROFILER_STATUS_SUCCESS ||
      name == nullptr)
    return 0;
  if (std::strstr(name, "Launch") != nullptr && std::strstr(name, "HostFunc") == nullptr)
    static_cast<operation_filter*>(data)->ops.push_back(op);
  return 0;
}

void report(const char* what, rocprofiler_status_t status) {
  if (status != ROCPROFILER_STATUS_SUCCESS)
    std::fprintf(stderr, "rocprofv3: %s failed: %s\n", what, rocprofiler_get_status_string(status));
}

}  // namespace

void configure_host_callstacks(tool_state& tool) {
  if (!tool.settings.kernel_host_callstack || g_state != nullptr) return;
  g_state = new callstack_state();
  // libunwind's cached unwinder where the process can load it (about 20 times faster per
  // launch), else libgcc's.
  callstack::select_unwinder(true);
  rocprofiler_context_id_t context{};
  report("rocprofiler_create_context (host call stacks)", rocprofiler_create_context(&context));
  for (auto kind : {ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API,
                    ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API}) {
    operation_filter filter{kind, {}};
    rocprofiler_iterate_callback_tracing_kind_operations(kind, collect_launch_ops, &filter);
    if (filter.ops.empty()) continue;
    report("host call stack callback tracing",
           rocprofiler_configure_callback_tracing_service(context, kind, filter.ops.data(),
                                                          filter.ops.size(), on_launch, nullptr));
  }
  // Its own context, always started: pausing the main context leaves launches unrecorded
  // anyway, and their stacks are then simply never joined.
  report("rocprofiler_start_context (host call stacks)", rocprofiler_start_context(context));
}

void attach_host_callstacks(const tool_state&, trace::trace_definitions& defs) {
  if (g_state == nullptr) return;
  callstack_state& st = *g_state;
  const auto launches = st.log.entries();
  // Told apart: launches whose stack the table could not keep (nothing unwound, or the table
  // full) and launches the log could not keep (full).
  const uint64_t no_stack = st.table.dropped(), unlogged = st.log.dropped();
  if (no_stack != 0)
    std::fprintf(stderr,
                 "rocprofv3: %llu kernel launches have no host call stack (nothing unwound, "
                 "or more than %u distinct stacks or %zu frames)\n",
                 static_cast<unsigned long long>(no_stack), max_stacks, max_total_frames);
  if (unlogged != 0)
    std::fprintf(stderr,
                 "rocprofv3: %llu kernel launches have no host call stack (more than %zu "
                 "launches)\n",
                 static_cast<unsigned long long>(unlogged), max_launches);
  if (launches.empty()) return;

  // Only stacks that some launch refers to, each distinct address resolved once.
  std::vector<uint32_t> ids;
  for (const auto& l : launches)
    ids.push_back(l.stack_id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  const callstack::symbolizer symbols;
  if (!symbols.ok())
    std::fprintf(stderr,
                 "rocprofv3: libdw could not read this process's modules: host call "
                 "stacks keep bare addresses\n");
  // An address becomes one frame per inlined call at it, then its function's own frame.
  std::unordered_map<uintptr_t, std::vector<trace::host_frame>> resolved;
  defs.host_callstacks.reserve(ids.size());
  for (uint32_t id : ids) {
    const callstack::stack_view view = st.table.stack(id);
    trace::host_callstack_info info;
    info.id = id;
    for (uint32_t i = 0; i < view.depth; ++i) {
      auto [it, fresh] = resolved.try_emplace(view.frames[i]);
      if (fresh)
        for (auto& f : symbols.resolve_inlined(view.frames[i]))
          it->second.push_back(trace::host_frame{f.address, std::move(f.function),
                                                 std::move(f.file), f.line, std::move(f.module)});
      info.frames.insert(info.frames.end(), it->second.begin(), it->second.end());
    }
    defs.host_callstacks.push_back(std::move(info));
  }
  defs.launch_callstacks.reserve(launches.size());
  for (const auto& l : launches)
    defs.launch_callstacks.push_back(trace::launch_callstack{l.correlation_id, l.stack_id});
  std::sort(defs.launch_callstacks.begin(), defs.launch_callstacks.end(),
            [](const auto& a, const auto& b) { return a.correlation_id < b.correlation_id; });
}

}  // namespace rocprof::tool
