// Kind and operation names, and their iteration. One table per enum, each checked at compile
// time to have one entry per enumerator.
#include <cstring>

#include "backend_loader.hpp"
#include "guarded.hpp"
#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/callback_tracing.h"

namespace rocprof::core {
namespace {

template <size_t N>
constexpr size_t count_of(const char* const (&)[N]) {
  return N;
}

constexpr const char* buffer_kind_names[] = {"NONE",
                                             "HSA_CORE_API",
                                             "HSA_AMD_EXT_API",
                                             "HSA_IMAGE_EXT_API",
                                             "HSA_FINALIZE_EXT_API",
                                             "HIP_RUNTIME_API",
                                             "HIP_COMPILER_API",
                                             "MARKER_CORE_API",
                                             "MARKER_CONTROL_API",
                                             "MARKER_NAME_API",
                                             "MEMORY_COPY",
                                             "KERNEL_DISPATCH",
                                             "SCRATCH_MEMORY",
                                             "CORRELATION_ID_RETIREMENT",
                                             "RCCL_API",
                                             "OMPT",
                                             "MEMORY_ALLOCATION",
                                             "RUNTIME_INITIALIZATION",
                                             "ROCDECODE_API",
                                             "ROCJPEG_API",
                                             "HIP_STREAM",
                                             "HIP_RUNTIME_API_EXT",
                                             "HIP_COMPILER_API_EXT",
                                             "ROCDECODE_API_EXT",
                                             "KFD_EVENT_PAGE_MIGRATE",
                                             "KFD_EVENT_PAGE_FAULT",
                                             "KFD_EVENT_QUEUE",
                                             "KFD_EVENT_UNMAP_FROM_GPU",
                                             "KFD_EVENT_DROPPED_EVENTS",
                                             "KFD_PAGE_MIGRATE",
                                             "KFD_PAGE_FAULT",
                                             "KFD_QUEUE",
                                             "MARKER_CORE_RANGE_API",
                                             "CUDA_RUNTIME_API",
                                             "CUDA_DRIVER_API",
                                             "MEMORY_SET"};
static_assert(count_of(buffer_kind_names) == ROCPROFILER_BUFFER_TRACING_LAST,
              "one name per buffer tracing kind");

constexpr const char* callback_kind_names[] = {"NONE",
                                               "HSA_CORE_API",
                                               "HSA_AMD_EXT_API",
                                               "HSA_IMAGE_EXT_API",
                                               "HSA_FINALIZE_EXT_API",
                                               "HIP_RUNTIME_API",
                                               "HIP_COMPILER_API",
                                               "MARKER_CORE_API",
                                               "MARKER_CONTROL_API",
                                               "MARKER_NAME_API",
                                               "CODE_OBJECT",
                                               "SCRATCH_MEMORY",
                                               "KERNEL_DISPATCH",
                                               "MEMORY_COPY",
                                               "RCCL_API",
                                               "OMPT",
                                               "MEMORY_ALLOCATION",
                                               "RUNTIME_INITIALIZATION",
                                               "ROCDECODE_API",
                                               "ROCJPEG_API",
                                               "HIP_STREAM",
                                               "MARKER_CORE_RANGE_API",
                                               "CUDA_RUNTIME_API",
                                               "CUDA_DRIVER_API",
                                               "MEMORY_SET"};
static_assert(count_of(callback_kind_names) == ROCPROFILER_CALLBACK_TRACING_LAST,
              "one name per callback tracing kind");

constexpr const char* marker_core_ops[] = {"roctxMarkA",     "roctxRangePushA",
                                           "roctxRangePop",  "roctxRangeStartA",
                                           "roctxRangeStop", "roctxGetThreadId"};
static_assert(count_of(marker_core_ops) == ROCPROFILER_MARKER_CORE_API_ID_LAST);
constexpr const char* marker_control_ops[] = {"roctxProfilerPause", "roctxProfilerResume"};
static_assert(count_of(marker_control_ops) == ROCPROFILER_MARKER_CONTROL_API_ID_LAST);
constexpr const char* marker_name_ops[] = {"roctxNameOsThread", "roctxNameHsaAgent",
                                           "roctxNameHipDevice", "roctxNameHipStream"};
static_assert(count_of(marker_name_ops) == ROCPROFILER_MARKER_NAME_API_ID_LAST);
constexpr const char* marker_range_ops[] = {"roctxMarkA", "roctxThreadRangeA", "roctxProcessRangeA",
                                            "roctxGetThreadId"};
static_assert(count_of(marker_range_ops) == ROCPROFILER_MARKER_CORE_RANGE_API_ID_LAST);
constexpr const char* memory_copy_ops[] = {
    "MEMORY_COPY_NONE",           "MEMORY_COPY_HOST_TO_HOST",     "MEMORY_COPY_HOST_TO_DEVICE",
    "MEMORY_COPY_DEVICE_TO_HOST", "MEMORY_COPY_DEVICE_TO_DEVICE", "MEMORY_COPY_PEER_TO_PEER"};
static_assert(count_of(memory_copy_ops) == ROCPROFILER_MEMORY_COPY_LAST);
constexpr const char* memory_allocation_ops[] = {
    "MEMORY_ALLOCATION_NONE", "MEMORY_ALLOCATION_ALLOCATE", "MEMORY_ALLOCATION_VMEM_ALLOCATE",
    "MEMORY_ALLOCATION_FREE", "MEMORY_ALLOCATION_VMEM_FREE"};
static_assert(count_of(memory_allocation_ops) == ROCPROFILER_MEMORY_ALLOCATION_LAST);
constexpr const char* memory_set_ops[] = {"MEMORY_SET_NONE", "MEMORY_SET_MEMSET"};
static_assert(count_of(memory_set_ops) == ROCPROFILER_MEMORY_SET_LAST);
constexpr const char* kernel_dispatch_ops[] = {"KERNEL_DISPATCH_NONE", "KERNEL_DISPATCH_ENQUEUE",
                                               "KERNEL_DISPATCH_COMPLETE"};
static_assert(count_of(kernel_dispatch_ops) == ROCPROFILER_KERNEL_DISPATCH_LAST);
constexpr const char* scratch_ops[] = {"SCRATCH_MEMORY_NONE", "SCRATCH_MEMORY_ALLOC",
                                       "SCRATCH_MEMORY_FREE", "SCRATCH_MEMORY_ASYNC_RECLAIM"};
static_assert(count_of(scratch_ops) == ROCPROFILER_SCRATCH_MEMORY_LAST);
constexpr const char* code_object_ops[] = {"CODE_OBJECT_NONE", "CODE_OBJECT_LOAD",
                                           "CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER",
                                           "CODE_OBJECT_HOST_KERNEL_SYMBOL_REGISTER"};
static_assert(count_of(code_object_ops) == ROCPROFILER_CODE_OBJECT_LAST);
constexpr const char* hip_stream_ops[] = {"HIP_STREAM_NONE", "HIP_STREAM_CREATE",
                                          "HIP_STREAM_DESTROY", "HIP_STREAM_SET"};
static_assert(count_of(hip_stream_ops) == ROCPROFILER_HIP_STREAM_LAST);
constexpr const char* runtime_init_ops[] = {
    "RUNTIME_INITIALIZATION_NONE",    "RUNTIME_INITIALIZATION_HSA",
    "RUNTIME_INITIALIZATION_HIP",     "RUNTIME_INITIALIZATION_MARKER",
    "RUNTIME_INITIALIZATION_RCCL",    "RUNTIME_INITIALIZATION_ROCDECODE",
    "RUNTIME_INITIALIZATION_ROCJPEG", "RUNTIME_INITIALIZATION_CUDA"};
static_assert(count_of(runtime_init_ops) == ROCPROFILER_RUNTIME_INITIALIZATION_LAST);

// Operations of one kind: names[op] for first <= op < count.
struct op_table {
  const char* const* names = nullptr;
  int32_t first = 0;
  int32_t count = 0;
};

template <size_t N>
constexpr op_table make_table(const char* const (&names)[N], int32_t first) {
  return op_table{names, first, static_cast<int32_t>(N)};
}

op_table ops_of(const char* kind_name) {
  const auto is = [kind_name](const char* n) { return std::strcmp(kind_name, n) == 0; };
  if (is("MARKER_CORE_API")) return make_table(marker_core_ops, 0);
  if (is("MARKER_CONTROL_API")) return make_table(marker_control_ops, 0);
  if (is("MARKER_NAME_API")) return make_table(marker_name_ops, 0);
  if (is("MARKER_CORE_RANGE_API")) return make_table(marker_range_ops, 0);
  if (is("MEMORY_COPY")) return make_table(memory_copy_ops, 1);
  if (is("MEMORY_ALLOCATION")) return make_table(memory_allocation_ops, 1);
  if (is("MEMORY_SET")) return make_table(memory_set_ops, 1);
  if (is("KERNEL_DISPATCH")) return make_table(kernel_dispatch_ops, 1);
  if (is("SCRATCH_MEMORY")) return make_table(scratch_ops, 1);
  if (is("CODE_OBJECT")) return make_table(code_object_ops, 1);
  if (is("HIP_STREAM")) return make_table(hip_stream_ops, 1);
  if (is("RUNTIME_INITIALIZATION")) return make_table(runtime_init_ops, 1);
  return op_table{};
}

const char* kind_name(bool buffer_kind, uint32_t kind) {
  if (buffer_kind) return kind < count_of(buffer_kind_names) ? buffer_kind_names[kind] : nullptr;
  return kind < count_of(callback_kind_names) ? callback_kind_names[kind] : nullptr;
}

rocprofiler_status_t query_kind_name(bool buffer_kind, uint32_t kind, const char** name,
                                     uint64_t* name_len) {
  const char* n = kind_name(buffer_kind, kind);
  if (n == nullptr || kind == 0) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
  if (name != nullptr) *name = n;
  if (name_len != nullptr) *name_len = std::strlen(n);
  return ROCPROFILER_STATUS_SUCCESS;
}

// A backend-owned kind's operations are named by its backend, which is loaded when a service
// of the kind is configured. A tool that chooses the operations before configuring (an op list
// without some CUDA calls) asks first: the backend is loaded for it then.
void load_owner(bool buffer_kind, uint32_t kind) {
  const char* backend =
      buffer_kind
          ? backend_for_buffer_kind(static_cast<rocprofiler_buffer_tracing_kind_t>(kind))
          : backend_for_callback_kind(static_cast<rocprofiler_callback_tracing_kind_t>(kind));
  if (backend != nullptr) load_backend(backend);
}

rocprofiler_status_t query_op_name(bool buffer_kind, uint32_t kind, int32_t op, const char** name,
                                   uint64_t* name_len) {
  const char* kn = kind_name(buffer_kind, kind);
  if (kn == nullptr || kind == 0) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
  const op_table t = ops_of(kn);
  const char* n = nullptr;
  if (t.names != nullptr) {
    if (op >= 0 && op < t.count) n = t.names[op];
  } else {
    n = backend_operation_name(buffer_kind, kind, op);
    if (n == nullptr) {
      load_owner(buffer_kind, kind);
      n = backend_operation_name(buffer_kind, kind, op);
    }
  }
  if (n == nullptr) return ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
  if (name != nullptr) *name = n;
  if (name_len != nullptr) *name_len = std::strlen(n);
  return ROCPROFILER_STATUS_SUCCESS;
}

// Operation range of a kind: static table, or what the owning backend reports.
void op_range(bool buffer_kind, uint32_t kind, int32_t& first, int32_t& count) {
  const op_table t = ops_of(kind_name(buffer_kind, kind));
  first = t.first;
  if (t.names == nullptr) load_owner(buffer_kind, kind);
  count = t.names != nullptr ? t.count : backend_operation_count(buffer_kind, kind);
}

}  // namespace
}  // namespace rocprof::core

extern "C" {

using namespace rocprof::core;

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_buffer_tracing_kind_name(
    rocprofiler_buffer_tracing_kind_t kind, const char** name, uint64_t* name_len) {
  return guarded(
      __func__, [&] { return query_kind_name(true, static_cast<uint32_t>(kind), name, name_len); });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_buffer_tracing_kind_operation_name(
    rocprofiler_buffer_tracing_kind_t kind, rocprofiler_tracing_operation_t operation,
    const char** name, uint64_t* name_len) {
  return guarded(__func__, [&] {
    return query_op_name(true, static_cast<uint32_t>(kind), operation, name, name_len);
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_callback_tracing_kind_name(
    rocprofiler_callback_tracing_kind_t kind, const char** name, uint64_t* name_len) {
  return guarded(__func__, [&] {
    return query_kind_name(false, static_cast<uint32_t>(kind), name, name_len);
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_callback_tracing_kind_operation_name(
    rocprofiler_callback_tracing_kind_t kind, rocprofiler_tracing_operation_t operation,
    const char** name, uint64_t* name_len) {
  return guarded(__func__, [&] {
    return query_op_name(false, static_cast<uint32_t>(kind), operation, name, name_len);
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_buffer_tracing_kinds(
    rocprofiler_buffer_tracing_kind_cb_t callback, void* data) {
  return guarded(__func__, [&] {
    for (uint32_t k = 1; k < ROCPROFILER_BUFFER_TRACING_LAST; ++k)
      if (callback(static_cast<rocprofiler_buffer_tracing_kind_t>(k), data) != 0) break;
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_buffer_tracing_kind_operations(
    rocprofiler_buffer_tracing_kind_t kind, rocprofiler_buffer_tracing_kind_operation_cb_t callback,
    void* data) {
  return guarded(__func__, [&] {
    if (kind <= 0 || kind >= ROCPROFILER_BUFFER_TRACING_LAST)
      return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
    int32_t first = 0, count = 0;
    op_range(true, static_cast<uint32_t>(kind), first, count);
    for (int32_t op = first; op < count; ++op) {
      // Backend-owned id spaces (CUPTI callback ids) have holes: report named ids only.
      if (query_op_name(true, static_cast<uint32_t>(kind), op, nullptr, nullptr) !=
          ROCPROFILER_STATUS_SUCCESS)
        continue;
      if (callback(kind, op, data) != 0) break;
    }
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_callback_tracing_kinds(
    rocprofiler_callback_tracing_kind_cb_t callback, void* data) {
  return guarded(__func__, [&] {
    for (uint32_t k = 1; k < ROCPROFILER_CALLBACK_TRACING_LAST; ++k)
      if (callback(static_cast<rocprofiler_callback_tracing_kind_t>(k), data) != 0) break;
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_callback_tracing_kind_operations(
    rocprofiler_callback_tracing_kind_t kind,
    rocprofiler_callback_tracing_kind_operation_cb_t callback, void* data) {
  return guarded(__func__, [&] {
    if (kind <= 0 || kind >= ROCPROFILER_CALLBACK_TRACING_LAST)
      return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
    int32_t first = 0, count = 0;
    op_range(false, static_cast<uint32_t>(kind), first, count);
    for (int32_t op = first; op < count; ++op) {
      // Backend-owned id spaces (CUPTI callback ids) have holes: report named ids only.
      if (query_op_name(false, static_cast<uint32_t>(kind), op, nullptr, nullptr) !=
          ROCPROFILER_STATUS_SUCCESS)
        continue;
      if (callback(kind, op, data) != 0) break;
    }
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

}  // extern "C"
