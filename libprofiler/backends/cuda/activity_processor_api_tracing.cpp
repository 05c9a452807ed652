// API tracing from CUPTI's API activity records (ROCPROF_CUDA_API_RECORDS=1, rocprofv3's default
// for CUDA API tracing): each record of a traced call becomes the API buffer record a callback pair
// would have made, after the fact, on the buffer thread. The application's threads take no
// callback: CUPTI writes the record asynchronously, which is what the mode saves.
#include "activity_processor.hpp"

namespace rocprof::cuda {

void activity_processor::set_api_record_tracing(const api_record_tracing& t) {
  std::lock_guard<std::mutex> lock{mutex_};
  // Turned off (callbacks took over): driver calls still held are settled as the flush would.
  if (api_tracing_on_ && !t.any()) {
    nesting_.release_all(settled_);
    settle_driver_calls(nullptr);
  }
  api_tracing_ = t;
  api_tracing_on_ = t.any();
}

bool activity_processor::traces_api_records() const {
  std::lock_guard<std::mutex> lock{mutex_};
  return api_tracing_on_;
}

size_t activity_processor::held_driver_records() const {
  std::lock_guard<std::mutex> lock{mutex_};
  return nesting_.held();
}

void activity_processor::own_calls(int64_t tid, uint64_t start_ns, uint64_t end_ns) {
  constexpr size_t max_windows = 64;  // the agent query runs once per process
  std::lock_guard<std::mutex> lock{mutex_};
  if (own_windows_.size() < max_windows) own_windows_.push_back(call_window{tid, start_ns, end_ns});
}

const char* activity_processor::call_name(api_domain domain, uint32_t cbid) {
  std::vector<const char*>& names = call_names_[domain == api_domain::runtime ? 0 : 1];
  if (names.empty()) names.assign(api_record_tracing::max_cbid, nullptr);
  const char*& name = names[cbid];  // cbid < max_cbid: checked by the caller
  if (name == nullptr && names_ != nullptr) {
    const auto d =
        domain == api_domain::runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API;
    if (names_->callback_name(d, cbid, &name) != CUPTI_SUCCESS || name == nullptr) name = "";
  }
  return name != nullptr && *name != '\0' ? name : nullptr;
}

bool activity_processor::own_call(const api_call& c) const {
  for (const call_window& w : own_windows_)
    if (w.tid == c.tid && c.start_ns >= w.start_ns && c.end_ns <= w.end_ns) return true;
  return false;
}

void activity_processor::traced_api_record(const CUpti_ActivityAPI& a) {
  ++counts_.api;
  api_call c;
  c.domain = a.kind == CUPTI_ACTIVITY_KIND_RUNTIME ? api_domain::runtime : api_domain::driver;
  c.cbid = a.cbid;
  c.cupti_id = a.correlationId;
  c.tid = static_cast<int64_t>(a.threadId);
  c.start_ns = a.start;
  c.end_ns = a.end;
  // Runtime calls return cudaError_t, driver calls CUresult: both fit the record's int32.
  c.return_code = static_cast<int32_t>(a.returnValue);
  if (own_call(c)) return;  // launches nothing, and callbacks never traced it either
  if (c.domain == api_domain::driver && api_tracing_.drop_nested_driver) {
    // Its work waits in waiting_ meanwhile: a nested call's work takes the runtime call's ids.
    nesting_.hold(c, settled_);
    settle_driver_calls(nullptr);  // only what the per-thread bound pushed out
    return;
  }
  const correlation_entry ids = join_api_record(c.cupti_id, c.tid, nullptr);
  if (c.domain == api_domain::runtime && api_tracing_.drop_nested_driver) {
    nesting_.runtime_call(c, settled_);
    settle_driver_calls(&ids);
  }
  emit_api_call(c, ids);
}

void activity_processor::settle_driver_calls(const correlation_entry* runtime) {
  for (const settled_call& s : settled_) {
    if (s.nested && runtime != nullptr) {
      join_api_record(s.call.cupti_id, s.call.tid, runtime);  // no record of its own
      continue;
    }
    emit_api_call(s.call, join_api_record(s.call.cupti_id, s.call.tid, nullptr));
  }
  settled_.clear();
}

void activity_processor::emit_api_call(const api_call& c, const correlation_entry& ids) {
  const bool runtime = c.domain == api_domain::runtime;
  if (c.cbid >= api_record_tracing::max_cbid ||
      !(runtime ? api_tracing_.runtime : api_tracing_.driver).test(c.cbid))
    return;  // recorded for its work only (a launch whose domain is not traced)
  api_event e;
  e.domain = c.domain;
  e.cbid = c.cbid;
  e.name = call_name(c.domain, c.cbid);
  e.correlation_id = ids.correlation_id;
  e.tid = c.tid;
  e.start_ns = c.start_ns;
  e.end_ns = c.end_ns;
  e.return_code = c.return_code;
  sink_.emit_api_record(e);
}

}  // namespace rocprof::cuda
