// A cupti_api for tests: records the calls the backend makes, in order, and serves synthetic
// activity buffers (a list of record pointers) through next_record.
#pragma once

#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cupti_api.hpp"

namespace rocprof::cuda::test {

class synthetic_cupti final : public cupti_api {
 public:
  std::vector<std::string> calls;  // "activity_enable:10", "subscribe", ...
  std::vector<std::pair<CUpti_CallbackDomain, CUpti_CallbackId>> enabled_callbacks;
  std::vector<CUpti_CallbackDomain> enabled_domains;
  std::map<std::pair<int, uint32_t>, std::string> names;  // (domain, cbid) -> name
  CUptiResult subscribe_result = CUPTI_SUCCESS;
  std::string old_subscriber;
  std::vector<const CUpti_Activity*> buffer_records;  // served by next_record
  size_t next_index = 0;
  size_t dropped = 0;
  // Per-API activity records (cuptiActivityEnableRuntimeApi/DriverApi, cuptiSetThreadIdType):
  // off by default, like a libcupti without them, so the launch-callback path stays the default.
  bool api_records_supported = false;
  std::vector<std::pair<CUpti_CallbackDomain, CUpti_CallbackId>> api_records_enabled;

  const char* result_string(CUptiResult) override { return "synthetic"; }
  CUptiResult subscribe(CUpti_SubscriberHandle* sub, CUpti_CallbackFunc, void*,
                        CUpti_SubscriberParams* params) override {
    calls.emplace_back("subscribe");
    if (subscribe_result != CUPTI_SUCCESS && params != nullptr &&
        params->oldSubscriberName != nullptr) {
      std::strncpy(params->oldSubscriberName, old_subscriber.c_str(),
                   params->oldSubscriberSize - 1);
    }
    *sub = reinterpret_cast<CUpti_SubscriberHandle>(this);
    return subscribe_result;
  }
  CUptiResult unsubscribe(CUpti_SubscriberHandle) override {
    calls.emplace_back("unsubscribe");
    return CUPTI_SUCCESS;
  }
  CUptiResult enable_callback(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain domain,
                              CUpti_CallbackId cbid) override {
    enabled_callbacks.emplace_back(domain, cbid);
    return CUPTI_SUCCESS;
  }
  CUptiResult enable_domain(uint32_t, CUpti_SubscriberHandle,
                            CUpti_CallbackDomain domain) override {
    enabled_domains.push_back(domain);
    return CUPTI_SUCCESS;
  }
  CUptiResult callback_name(CUpti_CallbackDomain domain, uint32_t cbid,
                            const char** name) override {
    auto it = names.find({static_cast<int>(domain), cbid});
    if (it == names.end()) return CUPTI_ERROR_INVALID_PARAMETER;
    *name = it->second.c_str();
    return CUPTI_SUCCESS;
  }
  CUptiResult activity_enable(CUpti_ActivityKind kind) override {
    calls.push_back("activity_enable:" + std::to_string(static_cast<int>(kind)));
    return CUPTI_SUCCESS;
  }
  CUptiResult activity_disable(CUpti_ActivityKind kind) override {
    calls.push_back("activity_disable:" + std::to_string(static_cast<int>(kind)));
    return CUPTI_SUCCESS;
  }
  CUptiResult activity_enable_api(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                  uint8_t on) override {
    if (!api_records_supported) return CUPTI_ERROR_NOT_SUPPORTED;
    if (on != 0) api_records_enabled.emplace_back(domain, cbid);
    return CUPTI_SUCCESS;
  }
  CUptiResult use_system_thread_ids() override {
    calls.emplace_back("use_system_thread_ids");
    return api_records_supported ? CUPTI_SUCCESS : CUPTI_ERROR_NOT_SUPPORTED;
  }
  CUptiResult register_buffer_callbacks(CUpti_BuffersCallbackRequestFunc,
                                        CUpti_BuffersCallbackCompleteFunc) override {
    calls.emplace_back("register_buffer_callbacks");
    return CUPTI_SUCCESS;
  }
  CUptiResult register_timestamp_callback(CUpti_TimestampCallbackFunc) override {
    calls.emplace_back("register_timestamp_callback");
    return CUPTI_SUCCESS;
  }
  CUptiResult next_record(uint8_t*, size_t, CUpti_Activity** record) override {
    if (next_index >= buffer_records.size()) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = const_cast<CUpti_Activity*>(buffer_records[next_index++]);
    return CUPTI_SUCCESS;
  }
  CUptiResult dropped_records(CUcontext, uint32_t, size_t* n) override {
    *n = dropped;
    return CUPTI_SUCCESS;
  }
  CUptiResult flush_all(uint32_t) override {
    calls.emplace_back("flush_all");
    return CUPTI_SUCCESS;
  }
  CUptiResult flush_period(uint32_t) override { return CUPTI_SUCCESS; }
  CUptiResult cubin_crc(CUpti_GetCubinCrcParams* p) override {
    p->cubinCrc = 0xC0FFEE;
    return CUPTI_SUCCESS;
  }
  CUptiResult device_id(CUcontext, uint32_t* device) override {
    *device = 0;
    return CUPTI_SUCCESS;
  }
  CUptiResult finalize() override { return CUPTI_SUCCESS; }

  // A few callback ids with the names CUPTI gives them (any ids: this wrapper names them).
  static constexpr uint32_t launch_cbid = 211, malloc_cbid = 20, memcpy_cbid = 31;
  static constexpr uint32_t driver_launch_cbid = 307, driver_other_cbid = 17;
  void name_launch_calls() {
    names[{CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid}] = "cudaLaunchKernel_v7000";
    names[{CUPTI_CB_DOMAIN_RUNTIME_API, malloc_cbid}] = "cudaMalloc_v3020";
    names[{CUPTI_CB_DOMAIN_RUNTIME_API, memcpy_cbid}] = "cudaMemcpy_v3020";
    names[{CUPTI_CB_DOMAIN_DRIVER_API, driver_launch_cbid}] = "cuLaunchKernel";
    names[{CUPTI_CB_DOMAIN_DRIVER_API, driver_other_cbid}] = "cuCtxGetDevice";
  }

  size_t index_of(const std::string& call) const {
    for (size_t i = 0; i < calls.size(); ++i)
      if (calls[i] == call) return i;
    return calls.size();
  }
};

}  // namespace rocprof::cuda::test
