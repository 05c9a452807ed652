// Synthetic CUPTI activity records and their delivery to a session, shared by the tests of the
// paths that use API activity records (launch attribution, API tracing from records).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "cupti_session.hpp"
#include "synthetic_cupti.hpp"

namespace rocprof::cuda::test {

// The calls the synthetic CUPTI names (synthetic_cupti::name_launch_calls).
constexpr uint32_t launch_cbid = synthetic_cupti::launch_cbid;
constexpr uint32_t malloc_cbid = synthetic_cupti::malloc_cbid;
constexpr uint32_t memcpy_cbid = synthetic_cupti::memcpy_cbid;
constexpr uint32_t driver_launch_cbid = synthetic_cupti::driver_launch_cbid;
constexpr uint32_t driver_other_cbid = synthetic_cupti::driver_other_cbid;

template <typename T>
const CUpti_Activity& as_record(const T& r) {
  return *static_cast<const CUpti_Activity*>(static_cast<const void*>(&r));
}

template <typename List>
bool has(const List& list, CUpti_CallbackDomain d, uint32_t cbid) {
  return std::find(list.begin(), list.end(),
                   std::make_pair(d, static_cast<CUpti_CallbackId>(cbid))) != list.end();
}

inline bool any_api_callback(const synthetic_cupti& api) {
  return std::any_of(api.enabled_callbacks.begin(), api.enabled_callbacks.end(), [](auto& c) {
    return c.first == CUPTI_CB_DOMAIN_RUNTIME_API || c.first == CUPTI_CB_DOMAIN_DRIVER_API;
  });
}

inline CUpti_ActivityAPI api_record(CUpti_ActivityKind kind, uint32_t cbid, uint32_t cupti_id,
                                    uint32_t tid, uint64_t start = 10, uint64_t end = 20) {
  CUpti_ActivityAPI a{};
  a.kind = kind;
  a.cbid = cbid;
  a.correlationId = cupti_id;
  a.threadId = tid;
  a.start = start;
  a.end = end;
  return a;
}

inline CUpti_ActivityKernel10 kernel_record(uint32_t cupti_id) {
  CUpti_ActivityKernel10 k{};
  k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  k.name = "_Z1kv";
  k.correlationId = cupti_id;
  k.start = 100;
  k.end = 200;
  return k;
}

// One completed buffer holding `records`, in that order.
inline void deliver(cupti_session& s, synthetic_cupti& api,
                    std::vector<const CUpti_Activity*> records) {
  api.buffer_records = std::move(records);
  api.next_index = 0;
  uint8_t dummy[8] = {};
  testing::internal::CaptureStderr();  // no driver here: the agent query says so once
  s.on_buffer_completed(nullptr, 0, dummy, sizeof(dummy));
  testing::internal::GetCapturedStderr();
}

}  // namespace rocprof::cuda::test
