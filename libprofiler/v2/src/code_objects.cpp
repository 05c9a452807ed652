#include "code_objects.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace rocprof::v2::code_objects {
namespace {

struct object_entry {
  uint64_t id = 0;
  const char* uri = nullptr;
  uint64_t base = 0;
  uint64_t size = 0;
  uint64_t load_ns = 0;
  uint64_t unload_ns = 0;
  uint32_t order = 0;
  bool in_memory = false;
  std::shared_ptr<const std::string> bytes;  // kept when a copy-mode capture existed at load
};

struct capture {
  rocprofiler_codeobj_capture_mode_t mode = ROCPROFILER_CAPTURE_SYMBOLS_ONLY;
  uint64_t userdata = 0;
  bool started = false;
  std::vector<size_t> objects;  // indices into store::objects
  std::vector<rocprofiler_intercepted_codeobj_t> last_get;
};

struct store {
  std::mutex mutex;
  std::vector<object_entry> objects;
  std::unordered_map<uint64_t, const char*> kernel_names;
  std::map<uint64_t, capture> captures;
  uint64_t next_capture = 1;
};
store& the_store() {
  static auto* s = new store();  // leaked: the core reports code objects during exit too
  return *s;
}

// file://path[#fragment] -> the file's bytes (empty when it cannot be read).
std::shared_ptr<const std::string> read_file_uri(const char* uri) {
  const std::string text(uri);
  const std::string prefix = "file://";
  if (text.compare(0, prefix.size(), prefix) != 0) return nullptr;
  std::ifstream in(text.substr(prefix.size(), text.find('#') - prefix.size()),
                   std::ios::binary | std::ios::ate);
  if (!in) return nullptr;
  std::string bytes(static_cast<size_t>(in.tellg()), '\0');
  in.seekg(0);
  if (!in.read(&bytes[0], static_cast<std::streamsize>(bytes.size()))) return nullptr;
  return std::make_shared<const std::string>(std::move(bytes));
}

capture* find(store& s, rocprofiler_record_id_t id) {
  auto it = s.captures.find(id.handle);
  return it == s.captures.end() ? nullptr : &it->second;
}

void add_unique(capture& c, size_t index) {
  if (std::find(c.objects.begin(), c.objects.end(), index) == c.objects.end())
    c.objects.push_back(index);
}

}  // namespace

void loaded(const core_code_object& object) {
  store& s = the_store();
  std::lock_guard<std::mutex> lock(s.mutex);
  object_entry e;
  e.id = object.id;
  e.uri = object.uri;
  e.base = object.load_base;
  e.size = object.load_size;
  e.load_ns = object.load_ns;
  e.order = static_cast<uint32_t>(s.objects.size() + 1);
  e.in_memory = object.memory != nullptr;
  // The core's memory is valid during the report only: copy now if anyone may ask for it.
  rocprofiler_codeobj_capture_mode_t widest = ROCPROFILER_CAPTURE_SYMBOLS_ONLY;
  for (const auto& entry : s.captures)
    widest = std::max(widest, entry.second.mode);
  if (e.in_memory && widest >= ROCPROFILER_CAPTURE_COPY_MEMORY)
    e.bytes = std::make_shared<const std::string>(static_cast<const char*>(object.memory),
                                                  object.memory_size);
  else if (!e.in_memory && widest == ROCPROFILER_CAPTURE_COPY_FILE_AND_MEMORY && e.uri)
    e.bytes = read_file_uri(e.uri);
  s.objects.push_back(e);
  for (auto& entry : s.captures)
    if (entry.second.started) entry.second.objects.push_back(s.objects.size() - 1);
}

void unloaded(uint64_t id, uint64_t timestamp) {
  store& s = the_store();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (object_entry& e : s.objects)
    if (e.id == id && e.unload_ns == 0) e.unload_ns = timestamp;
}

void kernel_symbol(const core_kernel_symbol& symbol) {
  store& s = the_store();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.kernel_names[symbol.kernel_id] = symbol.name;
}

const char* kernel_name(uint64_t kernel_id) {
  store& s = the_store();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.kernel_names.find(kernel_id);
  return it == s.kernel_names.end() ? nullptr : it->second;
}

rocprofiler_status_t capture_create(rocprofiler_record_id_t* id,
                                    rocprofiler_codeobj_capture_mode_t mode, uint64_t userdata) {
  if (id == nullptr || mode < ROCPROFILER_CAPTURE_SYMBOLS_ONLY ||
      mode > ROCPROFILER_CAPTURE_COPY_FILE_AND_MEMORY)
    return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
  store& s = the_store();
  std::lock_guard<std::mutex> lock(s.mutex);
  id->handle = s.next_capture++;
  capture& c = s.captures[id->handle];
  c.mode = mode;
  c.userdata = userdata;
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t capture_get(rocprofiler_record_id_t id, rocprofiler_codeobj_symbols_t* out) {
  if (out == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
  store& s = the_store();
  std::lock_guard<std::mutex> lock(s.mutex);
  capture* c = find(s, id);
  if (c == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
  c->last_get.clear();
  for (size_t index : c->objects) {
    const object_entry& e = s.objects[index];
    rocprofiler_intercepted_codeobj_t o{};
    o.filepath = e.uri;
    o.base_address = e.base;
    o.mem_size = e.size;
    const bool copy =
        e.bytes != nullptr && (e.in_memory ? c->mode >= ROCPROFILER_CAPTURE_COPY_MEMORY
                                           : c->mode == ROCPROFILER_CAPTURE_COPY_FILE_AND_MEMORY);
    o.data = copy ? e.bytes->data() : nullptr;
    o.data_size = copy ? e.bytes->size() : 0;
    o.clock_start.value = e.load_ns;
    o.clock_end.value = e.unload_ns;
    o.att_marker_id = e.order;
    c->last_get.push_back(o);
  }
  out->symbols = c->last_get.empty() ? nullptr : c->last_get.data();
  out->count = c->last_get.size();
  out->userdata = c->userdata;
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t capture_free(rocprofiler_record_id_t id) {
  store& s = the_store();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.captures.erase(id.handle) == 1 ? ROCPROFILER_STATUS_SUCCESS
                                          : ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
}

// Runs fn on the capture `id` under the store's lock; INVALID_ARGUMENTS for an unknown id.
template <typename Fn>
rocprofiler_status_t with_capture(rocprofiler_record_id_t id, Fn&& fn) {
  store& s = the_store();
  std::lock_guard<std::mutex> lock(s.mutex);
  capture* c = find(s, id);
  if (c == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS;
  fn(s, *c);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t capture_start(rocprofiler_record_id_t id) {
  return with_capture(id, [](store& s, capture& c) {
    c.started = true;
    for (size_t i = 0; i < s.objects.size(); ++i)
      if (s.objects[i].unload_ns == 0) add_unique(c, i);  // what is loaded now
  });
}

rocprofiler_status_t capture_stop(rocprofiler_record_id_t id) {
  return with_capture(id, [](store&, capture& c) { c.started = false; });
}

}  // namespace rocprof::v2::code_objects
