// Helpers of the v2 library's tests: the stand-in backend's driving functions and a record
// collector behind a v2 buffer callback (which has no user-data argument).
#pragma once

#include <dlfcn.h>
#include <rocprofiler/v2/rocprofiler.h>

#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace v2_test {

/// The stand-in backend the core loaded (ROCPROF_BACKEND_DIR points at its folder).
struct stand_in {
  void (*load_module)(uint64_t, uint64_t, const char*, const void*, uint64_t) = nullptr;
  uint64_t (*launch)(uint64_t) = nullptr;
  uint64_t (*copy)(uint64_t) = nullptr;
  bool loaded() const { return launch != nullptr; }
};

inline stand_in find_stand_in() {
  stand_in s;
  const std::string path =
      std::string(ROCPROF_TEST_V2_BACKEND_DIR) + "/librocprofiler-sdk-v2standin.so";
  void* handle = dlopen(path.c_str(), RTLD_NOLOAD | RTLD_NOW);
  if (handle == nullptr) return s;
  s.load_module =
      reinterpret_cast<decltype(s.load_module)>(dlsym(handle, "v2_standin_load_module"));
  s.launch = reinterpret_cast<decltype(s.launch)>(dlsym(handle, "v2_standin_launch"));
  s.copy = reinterpret_cast<decltype(s.copy)>(dlsym(handle, "v2_standin_copy"));
  return s;
}

/// One delivered record, copied out of the callback with what the test checks.
struct seen_record {
  rocprofiler_record_kind_t kind{};
  rocprofiler_record_tracer_t tracer{};
  rocprofiler_record_profiler_t profiler{};
  std::string name;  // tracer: its name; profiler: the kernel's name from query_kernel_info
};

/// Everything buffer callbacks received, per buffer id, walked with rocprofiler_next_record.
struct collector {
  std::mutex mutex;
  std::map<uint64_t, std::vector<seen_record>> records;
  std::map<uint64_t, int> deliveries;
  int walk_errors = 0;

  static collector& get() {
    static collector c;
    return c;
  }
  std::vector<seen_record> of(rocprofiler_buffer_id_t id) {
    std::lock_guard<std::mutex> lock(mutex);
    return records[id.value];
  }
  int deliveries_of(rocprofiler_buffer_id_t id) {
    std::lock_guard<std::mutex> lock(mutex);
    return deliveries[id.value];
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mutex);
    records.clear();
    deliveries.clear();
    walk_errors = 0;
  }
};

inline void collect(const rocprofiler_record_header_t* begin,
                    const rocprofiler_record_header_t* end, rocprofiler_session_id_t session,
                    rocprofiler_buffer_id_t buffer) {
  std::vector<seen_record> got;
  int errors = 0;
  const rocprofiler_record_header_t* record = begin;
  while (record < end) {
    seen_record r;
    r.kind = record->kind;
    if (record->kind == ROCPROFILER_TRACER_RECORD) {
      std::memcpy(&r.tracer, record, sizeof(r.tracer));
      r.name = r.tracer.name != nullptr ? r.tracer.name : "";
    } else if (record->kind == ROCPROFILER_PROFILER_RECORD) {
      std::memcpy(&r.profiler, record, sizeof(r.profiler));
      const char* name = nullptr;
      if (rocprofiler_query_kernel_info(ROCPROFILER_KERNEL_NAME, r.profiler.kernel_id, &name) ==
          ROCPROFILER_STATUS_SUCCESS)
        r.name = name;
    }
    got.push_back(r);
    const rocprofiler_record_header_t* next = nullptr;
    if (rocprofiler_next_record(record, &next, session, buffer) != ROCPROFILER_STATUS_SUCCESS) {
      ++errors;
      break;
    }
    record = next;
  }
  if (record != end) ++errors;
  collector& c = collector::get();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto& list = c.records[buffer.value];
  list.insert(list.end(), got.begin(), got.end());
  ++c.deliveries[buffer.value];
  c.walk_errors += errors;
}

}  // namespace v2_test
