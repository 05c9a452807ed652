// NVTX injection: the NVTX v3 header-only library in the application loads the library named
// by NVTX_INJECTION64_PATH (the tool library) and calls its InitializeInjectionNvtx2. We fill
// the CORE and CORE2 function tables it exposes, so each NVTX call lands here and is forwarded
// to the core's marker producer entry (backend/markers.h) with the NVTX domain name kept.
//
// Threads: NVTX calls arrive on any application thread. Push/pop/start/end/mark only convert
// the message (no lock, no allocation: wide strings go through a per-thread fixed buffer) and
// call the core. Domain creation and string registration are rare and take a mutex; their
// objects live until process exit because records and the application keep pointing at them.
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>
#include <rocprofiler-sdk/backend/markers.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <cwchar>
#include <deque>
#include <mutex>
#include <string>

#include "rocprof/common/c_boundary.hpp"
#include "tool_state.hpp"

// The handle types are opaque in the NVTX headers; the injection defines what they point at.
struct nvtxDomainRegistration_st {
  std::string name;
};
struct nvtxStringRegistration_st {
  std::string text;
};
struct nvtxResourceHandle {
  uint64_t id;
};

namespace rocprof::tool::nvtx {
namespace {

using c_boundary::guarded_call;
using c_boundary::guarded_or;

std::mutex registry_mutex;
std::deque<nvtxDomainRegistration_st> domains;  // deque: element addresses never move
std::deque<nvtxStringRegistration_st> strings;
std::deque<nvtxResourceHandle> resources;

const char* domain_name(nvtxDomainHandle_t domain) {
  return domain != nullptr ? domain->name.c_str() : nullptr;
}

// Narrows a wide string into a per-thread buffer (non-ASCII code points become '?').
const char* narrow(const wchar_t* text) {
  thread_local char buffer[512];
  if (text == nullptr) return "";
  size_t i = 0;
  for (; text[i] != L'\0' && i + 1 < sizeof(buffer); ++i)
    buffer[i] = (text[i] >= 0 && text[i] < 0x80) ? static_cast<char>(text[i]) : '?';
  buffer[i] = '\0';
  return buffer;
}

const char* message_of(const nvtxEventAttributes_t* attributes) {
  if (attributes == nullptr) return "";
  switch (attributes->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
      return attributes->message.ascii != nullptr ? attributes->message.ascii : "";
    case NVTX_MESSAGE_TYPE_UNICODE:
      return narrow(attributes->message.unicode);
    case NVTX_MESSAGE_TYPE_REGISTERED:
      return attributes->message.registered != nullptr
                 ? attributes->message.registered->text.c_str()
                 : "";
    default:
      return "";
  }
}

// ---- core module ----
void NVTX_API mark_ex(const nvtxEventAttributes_t* a) {
  rocprof_marker_mark(nullptr, message_of(a));
}
void NVTX_API mark_a(const char* m) {
  rocprof_marker_mark(nullptr, m != nullptr ? m : "");
}
void NVTX_API mark_w(const wchar_t* m) {
  rocprof_marker_mark(nullptr, narrow(m));
}
nvtxRangeId_t NVTX_API range_start_ex(const nvtxEventAttributes_t* a) {
  return rocprof_marker_start(nullptr, message_of(a));
}
nvtxRangeId_t NVTX_API range_start_a(const char* m) {
  return rocprof_marker_start(nullptr, m != nullptr ? m : "");
}
nvtxRangeId_t NVTX_API range_start_w(const wchar_t* m) {
  return rocprof_marker_start(nullptr, narrow(m));
}
void NVTX_API range_end(nvtxRangeId_t id) {
  rocprof_marker_stop(nullptr, id);
}
int NVTX_API range_push_ex(const nvtxEventAttributes_t* a) {
  return rocprof_marker_push(nullptr, message_of(a));
}
int NVTX_API range_push_a(const char* m) {
  return rocprof_marker_push(nullptr, m != nullptr ? m : "");
}
int NVTX_API range_push_w(const wchar_t* m) {
  return rocprof_marker_push(nullptr, narrow(m));
}
int NVTX_API range_pop() {
  return rocprof_marker_pop(nullptr);
}
void NVTX_API name_category_a(uint32_t, const char*) {}
void NVTX_API name_category_w(uint32_t, const wchar_t*) {}

// NVTX names a thread by id, which need not be the caller: record the name in the tool's
// definitions directly, and through the core (MARKER_NAME_API) when it is the calling thread.
// The calls below that allocate (names, registrations) run through the C-boundary guard: NVTX
// calls them from the application. The others only forward to the core, whose entries are
// guarded themselves.
void name_thread(uint32_t thread_id, const char* name) {
  if (name == nullptr) return;
  guarded_call("nvtxNameOsThread", [&] {
    state().defs->name_thread(static_cast<int64_t>(thread_id), name);
    if (static_cast<long>(thread_id) == ::syscall(SYS_gettid))
      rocprof_marker_name_thread(nullptr, name);
  });
}
void NVTX_API name_os_thread_a(uint32_t thread_id, const char* name) {
  name_thread(thread_id, name);
}
void NVTX_API name_os_thread_w(uint32_t thread_id, const wchar_t* name) {
  name_thread(thread_id, narrow(name));
}

// ---- core2 module (domains) ----
void NVTX_API domain_mark_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  rocprof_marker_mark(domain_name(d), message_of(a));
}
nvtxRangeId_t NVTX_API domain_range_start_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  return rocprof_marker_start(domain_name(d), message_of(a));
}
void NVTX_API domain_range_end(nvtxDomainHandle_t d, nvtxRangeId_t id) {
  rocprof_marker_stop(domain_name(d), id);
}
int NVTX_API domain_range_push_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  return rocprof_marker_push(domain_name(d), message_of(a));
}
int NVTX_API domain_range_pop(nvtxDomainHandle_t d) {
  return rocprof_marker_pop(domain_name(d));
}
nvtxResourceHandle_t NVTX_API domain_resource_create(nvtxDomainHandle_t,
                                                     nvtxResourceAttributes_t*) {
  return guarded_or(__func__, nvtxResourceHandle_t{nullptr}, [] {
    std::lock_guard<std::mutex> lock(registry_mutex);
    resources.push_back(nvtxResourceHandle{resources.size() + 1});
    return &resources.back();
  });
}
void NVTX_API domain_resource_destroy(nvtxResourceHandle_t) {}
void NVTX_API domain_name_category_a(nvtxDomainHandle_t, uint32_t, const char*) {}
void NVTX_API domain_name_category_w(nvtxDomainHandle_t, uint32_t, const wchar_t*) {}
nvtxStringHandle_t NVTX_API domain_register_string_a(nvtxDomainHandle_t, const char* text) {
  return guarded_or(__func__, nvtxStringHandle_t{nullptr}, [&] {
    std::lock_guard<std::mutex> lock(registry_mutex);
    strings.push_back(nvtxStringRegistration_st{text != nullptr ? text : ""});
    return &strings.back();
  });
}
nvtxStringHandle_t NVTX_API domain_register_string_w(nvtxDomainHandle_t d, const wchar_t* text) {
  return domain_register_string_a(d, narrow(text));
}
nvtxDomainHandle_t NVTX_API domain_create_a(const char* name) {
  return guarded_or(__func__, nvtxDomainHandle_t{nullptr}, [&] {
    std::lock_guard<std::mutex> lock(registry_mutex);
    domains.push_back(nvtxDomainRegistration_st{name != nullptr ? name : ""});
    return &domains.back();
  });
}
nvtxDomainHandle_t NVTX_API domain_create_w(const wchar_t* name) {
  return domain_create_a(narrow(name));
}
// Records keep the domain name (the core interns it), so the object may stay; nothing to free.
void NVTX_API domain_destroy(nvtxDomainHandle_t) {}
void NVTX_API initialize(const void*) {}

template <typename F>
void set_slot(NvtxFunctionTable table, unsigned int size, unsigned int id, F function) {
  if (id < size && table[id] != nullptr)
    *table[id] = reinterpret_cast<NvtxFunctionPointer>(function);
}

bool fill_core(NvtxFunctionTable t, unsigned int n) {
  set_slot(t, n, NVTX_CBID_CORE_MarkEx, mark_ex);
  set_slot(t, n, NVTX_CBID_CORE_MarkA, mark_a);
  set_slot(t, n, NVTX_CBID_CORE_MarkW, mark_w);
  set_slot(t, n, NVTX_CBID_CORE_RangeStartEx, range_start_ex);
  set_slot(t, n, NVTX_CBID_CORE_RangeStartA, range_start_a);
  set_slot(t, n, NVTX_CBID_CORE_RangeStartW, range_start_w);
  set_slot(t, n, NVTX_CBID_CORE_RangeEnd, range_end);
  set_slot(t, n, NVTX_CBID_CORE_RangePushEx, range_push_ex);
  set_slot(t, n, NVTX_CBID_CORE_RangePushA, range_push_a);
  set_slot(t, n, NVTX_CBID_CORE_RangePushW, range_push_w);
  set_slot(t, n, NVTX_CBID_CORE_RangePop, range_pop);
  set_slot(t, n, NVTX_CBID_CORE_NameCategoryA, name_category_a);
  set_slot(t, n, NVTX_CBID_CORE_NameCategoryW, name_category_w);
  set_slot(t, n, NVTX_CBID_CORE_NameOsThreadA, name_os_thread_a);
  set_slot(t, n, NVTX_CBID_CORE_NameOsThreadW, name_os_thread_w);
  return true;
}

bool fill_core2(NvtxFunctionTable t, unsigned int n) {
  set_slot(t, n, NVTX_CBID_CORE2_DomainMarkEx, domain_mark_ex);
  set_slot(t, n, NVTX_CBID_CORE2_DomainRangeStartEx, domain_range_start_ex);
  set_slot(t, n, NVTX_CBID_CORE2_DomainRangeEnd, domain_range_end);
  set_slot(t, n, NVTX_CBID_CORE2_DomainRangePushEx, domain_range_push_ex);
  set_slot(t, n, NVTX_CBID_CORE2_DomainRangePop, domain_range_pop);
  set_slot(t, n, NVTX_CBID_CORE2_DomainResourceCreate, domain_resource_create);
  set_slot(t, n, NVTX_CBID_CORE2_DomainResourceDestroy, domain_resource_destroy);
  set_slot(t, n, NVTX_CBID_CORE2_DomainNameCategoryA, domain_name_category_a);
  set_slot(t, n, NVTX_CBID_CORE2_DomainNameCategoryW, domain_name_category_w);
  set_slot(t, n, NVTX_CBID_CORE2_DomainRegisterStringA, domain_register_string_a);
  set_slot(t, n, NVTX_CBID_CORE2_DomainRegisterStringW, domain_register_string_w);
  set_slot(t, n, NVTX_CBID_CORE2_DomainCreateA, domain_create_a);
  set_slot(t, n, NVTX_CBID_CORE2_DomainCreateW, domain_create_w);
  set_slot(t, n, NVTX_CBID_CORE2_DomainDestroy, domain_destroy);
  set_slot(t, n, NVTX_CBID_CORE2_Initialize, initialize);
  return true;
}

int initialize_injection(NvtxGetExportTableFunc_t get_export_table) {
  if (get_export_table == nullptr) return 0;
  const auto* callbacks =
      static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr || callbacks->GetModuleFunctionTable == nullptr) return 0;
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size) || table == nullptr)
    return 0;
  fill_core(table, size);
  table = nullptr;
  size = 0;
  if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) && table != nullptr)
    fill_core2(table, size);
  return 1;
}

}  // namespace
}  // namespace rocprof::tool::nvtx

// Returns non-zero on success (NVTX treats 0 as "injection failed": it then disables itself).
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t get_export_table) {
  return rocprof::c_boundary::guarded_or(
      __func__, 0, [&] { return rocprof::tool::nvtx::initialize_injection(get_export_table); });
}
