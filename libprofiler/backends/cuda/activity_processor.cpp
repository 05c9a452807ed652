#include "activity_processor.hpp"

#include "activity_translate.hpp"

#include <cstdio>
#include <cstdlib>

#include "notices.hpp"

namespace rocprof::cuda {

void activity_processor::set_device_agents(std::vector<uint64_t> agents) {
  std::lock_guard<std::mutex> lock{mutex_};
  device_agents_ = std::move(agents);
}

uint64_t activity_processor::agent_of(uint32_t device) const {
  return device < device_agents_.size() ? device_agents_[device] : 0;
}

correlation_entry activity_processor::resolve(uint32_t cupti_id) {
  correlation_entry e;
  switch (correlations_.find(cupti_id, e)) {
    case correlation_map::found::entry:
      ++ids_.known;
      return e;
    case correlation_map::found::shared:
      // CUPTI gave this id to several calls: it names none of them. The work gets an id of
      // its own (no API record shares it), no thread and no external id, as work no callback
      // saw; never the ids of whichever call carried the id last.
      ++ids_.shared;
      note_shared_ids_once();
      e = correlation_entry{};
      e.correlation_id = sink_.next_correlation_id();
      return e;
    case correlation_map::found::none:
      break;
  }
  if (cupti_id == 0) {
    ++ids_.zero;  // CUPTI named no call
    return e;
  }
  // No launch callback saw this call (or its slot was reused): give it its own id now and
  // remember it, so sibling records (graph nodes share one CUPTI id) share it too.
  ++ids_.unseen;
  e.correlation_id = sink_.next_correlation_id();
  correlations_.put(cupti_id, e);
  return e;
}

void activity_processor::note_shared_ids_once() {
  if (shared_noted_) return;
  shared_noted_ = true;
  if (notices_wanted(sink_))
    std::fprintf(stderr,
                 "rocprofv3 [cuda]: CUPTI gave one correlation id to several API calls; GPU "
                 "records with such an id are not attributed to a launch\n");
}

record_correlation_counts activity_processor::correlation_counts() const {
  std::lock_guard<std::mutex> lock{mutex_};
  record_correlation_counts c = ids_;
  c.shared_callback_ids = correlations_.shared_marks();
  c.zero_callback_ids = correlations_.zero_puts();
  return c;
}

void activity_processor::set_join_api_records(bool on) {
  std::lock_guard<std::mutex> lock{mutex_};
  join_api_records_ = on;
}

bool activity_processor::awaits_api_record(uint32_t cupti_id) const {
  correlation_entry unused;
  return join_api_records_ && cupti_id != 0 &&
         correlations_.find(cupti_id, unused) == correlation_map::found::none;
}

void activity_processor::emit_waiting(waiting_work& w, const correlation_entry& c) {
  std::visit(
      [&](auto& e) {
        apply(e, c);
        sink_.emit(e);
      },
      w);
}

void activity_processor::api_record(const CUpti_ActivityAPI& a) {
  ++counts_.api;
  join_api_record(a.correlationId, static_cast<int64_t>(a.threadId), nullptr);
}

correlation_entry activity_processor::join_api_record(uint32_t cupti_id, int64_t tid,
                                                      const correlation_entry* inherit) {
  correlation_entry c;
  // A launch callback that saw the call (external ids, counting) has the last word.
  const auto found = correlations_.find(cupti_id, c);
  if (found == correlation_map::found::none) {
    if (inherit != nullptr) {
      c = *inherit;
    } else {
      c.correlation_id = sink_.next_correlation_id();
      c.tid = tid;
    }
    correlations_.put(cupti_id, c);
  }
  const bool shared = found == correlation_map::found::shared;
  const auto range = waiting_.equal_range(cupti_id);
  for (auto it = range.first; it != range.second; ++it)
    emit_waiting(it->second, shared ? resolve(cupti_id) : c);
  waiting_.erase(range.first, range.second);
  return shared ? resolve(cupti_id) : c;
}

void activity_processor::release_waiting() {
  std::lock_guard<std::mutex> lock{mutex_};
  if (api_tracing_on_) {  // no runtime record will settle them now
    nesting_.release_all(settled_);
    settle_driver_calls(nullptr);
  }
  for (auto& [cupti_id, work] : waiting_)
    emit_waiting(work, resolve(cupti_id));
  waiting_.clear();
}

size_t activity_processor::waiting() const {
  std::lock_guard<std::mutex> lock{mutex_};
  return waiting_.size();
}

uint64_t activity_processor::kernel_id_locked(const std::string& name) {
  auto it = kernel_ids_.find(name);
  if (it != kernel_ids_.end()) return it->second;
  const uint64_t id = kernel_ids_.size() + 1;
  kernel_ids_.emplace(name, id);
  return id;
}

uint64_t activity_processor::kernel_id_at_launch(
    const std::string& name, const std::function<bool(function_resources&)>& describe) {
  {
    std::lock_guard<std::mutex> lock{mutex_};
    if (symbols_reported_.count(name) != 0) return kernel_id_locked(name);
  }
  function_resources r;  // a driver call: not under the lock the buffer thread takes
  if (describe && !describe(r)) r = function_resources{};
  std::lock_guard<std::mutex> lock{mutex_};
  const uint64_t id = kernel_id_locked(name);
  report_symbol_locked(name, id, r);
  return id;
}

void activity_processor::report_symbol_locked(const std::string& name, uint64_t id,
                                              const function_resources& r) {
  if (!symbols_reported_.insert(name).second) return;
  kernel_symbol_event s;
  s.kernel_id = id;
  s.mangled_name = name.c_str();
  const auto module = code_object_of_.find(name);
  if (module != code_object_of_.end()) s.code_object_id = module->second;
  s.static_shared_memory = r.static_shared_memory;
  s.local_memory_per_thread = r.local_memory_per_thread;
  s.registers_per_thread = r.registers_per_thread;
  sink_.kernel_symbol(s);
}

void activity_processor::report_record_symbol_locked(const CUpti_ActivityKernel10& k,
                                                     const std::string& name, uint64_t id) {
  function_resources r;
  r.static_shared_memory =
      k.staticSharedMemory > 0 ? static_cast<uint32_t>(k.staticSharedMemory) : 0;
  r.local_memory_per_thread = k.localMemoryPerThread;
  r.registers_per_thread = k.registersPerThread;
  report_symbol_locked(name, id, r);
}

uint64_t activity_processor::kernel_id_of(const CUpti_ActivityKernel10& k) {
  const std::string key = k.name != nullptr ? k.name : "";
  const uint64_t id = kernel_id_locked(key);
  report_record_symbol_locked(k, key, id);
  return id;
}

bool activity_processor::launched_elsewhere(const CUpti_ActivityKernel10& k,
                                            const correlation_entry& c, uint64_t kernel_id) {
  return c.kernel_id != 0 && k.graphId == 0 && kernel_id != c.kernel_id;
}

void activity_processor::leave_out_profiler_kernel(const std::string& name) {
  if (counts_.profiler_kernels++ == 0 && verbose_diagnostics())
    std::fprintf(stderr,
                 "rocprofv3 [cuda]: counters: kernel records of the range profiler's own kernels "
                 "(%s), launched inside counted launches, are left out of the trace\n",
                 name.c_str());
}

uint64_t activity_processor::kernel_id_of_name(const char* name) {
  std::lock_guard<std::mutex> lock{mutex_};
  CUpti_ActivityKernel10 k{};
  k.name = name;
  return kernel_id_of(k);
}

void activity_processor::add_module_functions(uint64_t code_object_id,
                                              const std::vector<std::string>& names) {
  std::lock_guard<std::mutex> lock{mutex_};
  for (const std::string& name : names)
    code_object_of_[name] = code_object_id;
}

uint64_t activity_processor::dispatch_id_of(const CUpti_ActivityKernel10& k, kernel_event& e,
                                            uint64_t launch_dispatch_id) {
  if (graphs_ != nullptr && k.graphId != 0) {
    const uint32_t grid[3] = {e.grid.x, e.grid.y, e.grid.z};
    const uint32_t block[3] = {e.workgroup.x, e.workgroup.y, e.workgroup.z};
    std::vector<finished_dispatch> ready;
    // An untimed node record (kernel replay) takes its laid-out span (graph_counting.hpp).
    const uint64_t id = graphs_->kernel_record(k.correlationId, e.kernel_id, grid, block,
                                               e.start_ns, e.end_ns, ready, &e.start_ns, &e.end_ns);
    deliver(ready);
    if (id == graph_counting::not_a_node) return 0;
    if (id != 0) return id;
  }
  if (launch_dispatch_id != 0) return launch_dispatch_id;
  return next_dispatch_id();
}

void activity_processor::deliver(std::vector<finished_dispatch>& ready) {
  for (const finished_dispatch& f : ready)
    sink_.counting_end(f.counted, f.values.empty() ? nullptr : f.values.data(), f.values.size(),
                       f.start_ns, f.end_ns);
  ready.clear();
}

void activity_processor::process_buffer(cupti_api& api, uint8_t* buffer, size_t valid_size) {
  CUpti_Activity* record = nullptr;
  names_ = &api;  // one CUPTI per process: the API records' calls are named through it
  while (api.next_record(buffer, valid_size, &record) == CUPTI_SUCCESS && record != nullptr) {
    process(*record);
  }
}

void activity_processor::process(const CUpti_Activity& record) {
  std::lock_guard<std::mutex> lock{mutex_};
  switch (record.kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto& k = reinterpret_cast<const CUpti_ActivityKernel10&>(record);
      kernel_event e = translate(k);
      const bool waits = awaits_api_record(k.correlationId);
      const correlation_entry c = waits ? correlation_entry{} : resolve(k.correlationId);
      const std::string name = k.name != nullptr ? k.name : "";
      e.agent_id = agent_of(k.deviceId);
      e.kernel_id = kernel_id_locked(name);
      // 0 stays for the range profiler's own kernels: not the application's work, no symbol.
      if (!launched_elsewhere(k, c, e.kernel_id))
        e.dispatch_id = dispatch_id_of(k, e, c.dispatch_id);
      if (e.dispatch_id == 0) {
        leave_out_profiler_kernel(name);
        break;
      }
      report_record_symbol_locked(k, name, e.kernel_id);
      ++counts_.kernels;
      if (e.start_ns == 0 && e.end_ns == 0 && c.dispatch_id != 0 && replayed_ != nullptr)
        replayed_->take(c.dispatch_id, e.start_ns, e.end_ns);
      if (waits) {
        waiting_.emplace(k.correlationId, waiting_work{e});
        break;
      }
      apply(e, c);
      sink_.emit(e);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto& m = reinterpret_cast<const CUpti_ActivityMemcpy6&>(record);
      memcpy_event e = translate(m);
      if (graphs_ != nullptr && m.graphId != 0 && e.direction == copy_direction::device_to_device) {
        std::vector<finished_dispatch> ready;
        graphs_->copy_record(m.correlationId, e.start_ns, ready);  // a copy node's range
        deliver(ready);
      }
      const uint64_t dev = agent_of(m.deviceId), host = sink_.cpu_agent_id();
      const bool src_host = e.direction == copy_direction::host_to_device ||
                            e.direction == copy_direction::host_to_host;
      const bool dst_host = e.direction == copy_direction::device_to_host ||
                            e.direction == copy_direction::host_to_host;
      e.src_agent_id = src_host ? host : dev;
      e.dst_agent_id = dst_host ? host : dev;
      ++counts_.memcpys;
      emit_attached(e, m.correlationId);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY2: {
      const auto& m = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4&>(record);
      memcpy_event e = translate(m);
      e.src_agent_id = agent_of(m.srcDeviceId);
      e.dst_agent_id = agent_of(m.dstDeviceId);
      ++counts_.memcpys;
      emit_attached(e, m.correlationId);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto& m = reinterpret_cast<const CUpti_ActivityMemset4&>(record);
      memset_event e = translate(m);
      e.agent_id = agent_of(m.deviceId);
      ++counts_.memsets;
      emit_attached(e, m.correlationId);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMORY2: {
      const auto& m = reinterpret_cast<const CUpti_ActivityMemory4&>(record);
      allocation_event e = translate(m);
      e.agent_id = e.operation == allocation_op::allocate ? agent_of(m.deviceId) : 0;
      ++counts_.allocations;
      emit_attached(e, m.correlationId);
      break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
      if (api_tracing_on_) {
        traced_api_record(reinterpret_cast<const CUpti_ActivityAPI&>(record));
        break;
      }
      if (!join_api_records_) {
        ++counts_.other;
        break;
      }
      api_record(reinterpret_cast<const CUpti_ActivityAPI&>(record));
      break;
    default:
      ++counts_.other;
      break;
  }
}

uint64_t activity_processor::agent_of_device(uint32_t device) const {
  std::lock_guard<std::mutex> lock{mutex_};
  return agent_of(device);
}

activity_counts activity_processor::counts() const {
  std::lock_guard<std::mutex> lock{mutex_};
  return counts_;
}

}  // namespace rocprof::cuda
