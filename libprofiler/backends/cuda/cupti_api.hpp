// The thin, replaceable wrapper over every CUPTI call the backend makes. The session and the
// activity processor talk to CUPTI only through this interface, so unit tests drive them with
// synthetic records on machines without a GPU (the pattern Kineto uses for its CUPTI wrapper).
#pragma once

#include <cupti.h>

#include <cstddef>
#include <cstdint>

#include "cupti_table.hpp"

namespace rocprof::cuda {

class cupti_api {
 public:
  virtual ~cupti_api() = default;
  virtual const char* result_string(CUptiResult r) = 0;
  virtual CUptiResult subscribe(CUpti_SubscriberHandle* sub, CUpti_CallbackFunc cb, void* user,
                                CUpti_SubscriberParams* params) = 0;
  virtual CUptiResult unsubscribe(CUpti_SubscriberHandle sub) = 0;
  virtual CUptiResult enable_callback(uint32_t on, CUpti_SubscriberHandle sub,
                                      CUpti_CallbackDomain domain, CUpti_CallbackId cbid) = 0;
  virtual CUptiResult enable_domain(uint32_t on, CUpti_SubscriberHandle sub,
                                    CUpti_CallbackDomain domain) = 0;
  virtual CUptiResult callback_name(CUpti_CallbackDomain domain, uint32_t cbid,
                                    const char** name) = 0;
  virtual CUptiResult activity_enable(CUpti_ActivityKind kind) = 0;
  virtual CUptiResult activity_disable(CUpti_ActivityKind kind) = 0;
  // Per-API activity records (CUPTI_ACTIVITY_KIND_RUNTIME / _DRIVER records of one callback id
  // without enabling the whole kind). CUPTI_ERROR_NOT_SUPPORTED where libcupti lacks them.
  virtual CUptiResult activity_enable_api(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                          uint8_t on) {
    (void)domain, (void)cbid, (void)on;
    return CUPTI_ERROR_NOT_SUPPORTED;
  }
  // API activity records name the OS thread (gettid), as the core's records do.
  virtual CUptiResult use_system_thread_ids() { return CUPTI_ERROR_NOT_SUPPORTED; }
  virtual CUptiResult register_buffer_callbacks(CUpti_BuffersCallbackRequestFunc requested,
                                                CUpti_BuffersCallbackCompleteFunc completed) = 0;
  virtual CUptiResult register_timestamp_callback(CUpti_TimestampCallbackFunc fn) = 0;
  virtual CUptiResult next_record(uint8_t* buffer, size_t valid_size, CUpti_Activity** record) = 0;
  virtual CUptiResult dropped_records(CUcontext ctx, uint32_t stream, size_t* dropped) = 0;
  virtual CUptiResult flush_all(uint32_t flag) = 0;
  virtual CUptiResult flush_period(uint32_t ms) = 0;
  virtual CUptiResult cubin_crc(CUpti_GetCubinCrcParams* params) = 0;
  virtual CUptiResult device_id(CUcontext ctx, uint32_t* device) = 0;
  virtual CUptiResult finalize() = 0;
};

// The production implementation: forwards to the dlsym'd table of the loaded libcupti.
class cupti_dl_api final : public cupti_api {
 public:
  explicit cupti_dl_api(const cupti_table& fn) : fn_{fn} {}
  const char* result_string(CUptiResult r) override {
    const char* s = nullptr;
    return fn_.cuptiGetResultString(r, &s) == CUPTI_SUCCESS && s != nullptr ? s : "unknown";
  }
  CUptiResult subscribe(CUpti_SubscriberHandle* sub, CUpti_CallbackFunc cb, void* user,
                        CUpti_SubscriberParams* params) override {
    return fn_.cuptiSubscribe_v2(sub, cb, user, params);
  }
  CUptiResult unsubscribe(CUpti_SubscriberHandle sub) override { return fn_.cuptiUnsubscribe(sub); }
  CUptiResult enable_callback(uint32_t on, CUpti_SubscriberHandle sub, CUpti_CallbackDomain domain,
                              CUpti_CallbackId cbid) override {
    return fn_.cuptiEnableCallback(on, sub, domain, cbid);
  }
  CUptiResult enable_domain(uint32_t on, CUpti_SubscriberHandle sub,
                            CUpti_CallbackDomain domain) override {
    return fn_.cuptiEnableDomain(on, sub, domain);
  }
  CUptiResult callback_name(CUpti_CallbackDomain domain, uint32_t cbid,
                            const char** name) override {
    return fn_.cuptiGetCallbackName(domain, cbid, name);
  }
  CUptiResult activity_enable(CUpti_ActivityKind kind) override {
    return fn_.cuptiActivityEnable(kind);
  }
  CUptiResult activity_disable(CUpti_ActivityKind kind) override {
    return fn_.cuptiActivityDisable(kind);
  }
  CUptiResult activity_enable_api(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                  uint8_t on) override {
    const auto fn = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? fn_.cuptiActivityEnableRuntimeApi
                                                          : fn_.cuptiActivityEnableDriverApi;
    return fn != nullptr ? fn(cbid, on) : CUPTI_ERROR_NOT_SUPPORTED;
  }
  CUptiResult use_system_thread_ids() override {
    return fn_.cuptiSetThreadIdType != nullptr
               ? fn_.cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM)
               : CUPTI_ERROR_NOT_SUPPORTED;
  }
  CUptiResult register_buffer_callbacks(CUpti_BuffersCallbackRequestFunc requested,
                                        CUpti_BuffersCallbackCompleteFunc completed) override {
    return fn_.cuptiActivityRegisterCallbacks(requested, completed);
  }
  CUptiResult register_timestamp_callback(CUpti_TimestampCallbackFunc fn) override {
    return fn_.cuptiActivityRegisterTimestampCallback(fn);
  }
  CUptiResult next_record(uint8_t* buffer, size_t valid_size, CUpti_Activity** record) override {
    return fn_.cuptiActivityGetNextRecord(buffer, valid_size, record);
  }
  CUptiResult dropped_records(CUcontext ctx, uint32_t stream, size_t* dropped) override {
    return fn_.cuptiActivityGetNumDroppedRecords(ctx, stream, dropped);
  }
  CUptiResult flush_all(uint32_t flag) override { return fn_.cuptiActivityFlushAll(flag); }
  CUptiResult flush_period(uint32_t ms) override { return fn_.cuptiActivityFlushPeriod(ms); }
  CUptiResult cubin_crc(CUpti_GetCubinCrcParams* params) override {
    return fn_.cuptiGetCubinCrc(params);
  }
  CUptiResult device_id(CUcontext ctx, uint32_t* device) override {
    return fn_.cuptiGetDeviceId(ctx, device);
  }
  CUptiResult finalize() override { return fn_.cuptiFinalize(); }

 private:
  cupti_table fn_;
};

}  // namespace rocprof::cuda
