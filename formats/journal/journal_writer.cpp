#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <new>

#include "journal/journal_codec.hpp"
#include "journal/journal_layout.hpp"
#include "rocprof/trace/journal.hpp"
#include "rocprof/trace/staged_file.hpp"

namespace rocprof::trace {

using namespace journal;

namespace {

// One extent being filled: its mapping stays until it is full, then goes (the data stays in
// the page cache and the file), so the process's resident memory does not grow with the trace.
struct open_extent {
  unsigned char* base = nullptr;  // the mapping: header, then payload
  size_t mapped = 0;
  size_t table_index = 0;  // in state::extents
  uint64_t used = 0;       // payload bytes
  extent_header* header() const { return reinterpret_cast<extent_header*>(base); }
  unsigned char* payload() const { return base + sizeof(extent_header); }
  uint64_t room() const { return header()->capacity - used; }
};

}  // namespace

struct journal_writer::state {
  int fd = -1;
  pid_t pid = 0;
  file_header* header = nullptr;  // mapped for the process's life
  uint64_t end = file_header_size;
  bool failed = false;
  std::string error;
  std::vector<journal_extent> extents;
  std::array<open_extent, record_kind_count> records{};
  open_extent definitions;
  std::array<uint64_t, record_kind_count> counts{};

  void close_extent(open_extent& e) {
    if (e.base == nullptr) return;
    extents[e.table_index].bytes = e.used;
    ::munmap(e.base, e.mapped);
    e = open_extent{};
  }

  // Reserves the blocks, maps and describes a new extent; returns nullptr (and sets error)
  // when the disk or the address space says no.
  bool open_new(open_extent& e, uint32_t type, uint32_t kind, uint32_t record_size,
                size_t capacity) {
    close_extent(e);
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t total = round_up(sizeof(extent_header) + capacity, page);
    const int reserved = ::posix_fallocate(fd, static_cast<off_t>(end), static_cast<off_t>(total));
    if (reserved != 0) {
      error = std::string("cannot grow the journal: ") + std::strerror(reserved);
      return false;
    }
    void* mapped =
        ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, static_cast<off_t>(end));
    if (mapped == MAP_FAILED) {
      error = std::string("cannot map the journal: ") + std::strerror(errno);
      return false;
    }
    e.base = static_cast<unsigned char*>(mapped);
    e.mapped = total;
    e.used = 0;
    e.table_index = extents.size();
    extent_header* h = e.header();
    h->type = type;
    h->kind = kind;
    h->record_size = record_size;
    h->capacity = total - sizeof(extent_header);
    h->committed.store(0, std::memory_order_relaxed);
    h->magic.store(extent_magic, std::memory_order_release);  // the extent exists from here
    extents.push_back(journal_extent{end, type, kind, record_size, h->capacity, 0});
    end += total;
    return true;
  }
};

journal_writer::journal_writer() : state_(std::make_unique<state>()) {}

journal_writer::~journal_writer() {
  if (abandoned_.load() || !owned_here()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& e : state_->records)
    state_->close_extent(e);
  state_->close_extent(state_->definitions);
  if (state_->header != nullptr) ::munmap(state_->header, file_header_size);
  if (state_->fd >= 0) ::close(state_->fd);
}

bool journal_writer::create(const std::string& directory, const output_plan& plan,
                            std::string* error) {
  std::lock_guard<std::mutex> lock(mutex_);
  state& s = *state_;
  std::string dir = directory.empty() ? std::string(".") : directory;
  if (dir.back() != '/') dir += '/';
  if (auto e = create_parent_directories(dir + "x"); !e.empty()) {
    if (error) *error = e;
    return false;
  }
  s.pid = ::getpid();
  owner_pid_.store(s.pid);
  for (int attempt = 0; attempt < 100 && s.fd < 0; ++attempt) {
    std::string candidate = dir + ".rocprofv3-journal-" + std::to_string(s.pid) + "-" +
                            std::to_string(attempt) + ".dat";
    s.fd = ::open(candidate.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (s.fd >= 0) path_ = std::move(candidate);
    if (s.fd < 0 && errno != EEXIST) break;
  }
  if (s.fd < 0) {
    if (error) *error = "cannot create a journal in '" + dir + "': " + std::strerror(errno);
    return false;
  }
  // Held until the process ends: whoever gets it knows this process is gone.
  const int reserved = ::flock(s.fd, LOCK_EX | LOCK_NB) == 0
                           ? ::posix_fallocate(s.fd, 0, static_cast<off_t>(file_header_size))
                           : errno;
  void* mapped = reserved != 0 ? MAP_FAILED
                               : ::mmap(nullptr, file_header_size, PROT_READ | PROT_WRITE,
                                        MAP_SHARED, s.fd, 0);
  if (mapped == MAP_FAILED) {
    if (error) *error = "cannot prepare the journal '" + path_ + "': " + std::strerror(errno);
    ::unlink(path_.c_str());
    ::close(s.fd);
    s.fd = -1;
    path_.clear();
    return false;
  }
  s.header = new (mapped) file_header{};
  s.header->version = layout_version;
  s.header->kind_count = static_cast<uint32_t>(record_kind_count);
  for (size_t k = 0; k < record_kind_count; ++k)
    s.header->record_sizes[k] = static_cast<uint32_t>(record_sizes[k]);
  s.header->pid = s.pid;
  std::memcpy(s.header->magic, file_magic, sizeof(file_magic));
  byte_writer out;
  out(plan);
  append_entry_locked(plan_entry, out.bytes());
  if (s.failed) {
    if (error) *error = s.error;
    return false;
  }
  return true;
}

bool journal_writer::usable_locked() const {
  return state_->header != nullptr && !state_->failed;
}

bool journal_writer::owned_here() const {
  // In a forked child the parent's journal is not ours, and its lock may be held forever by a
  // thread that did not come along: checked before locking.
  return owner_pid_.load(std::memory_order_relaxed) == ::getpid();
}

void journal_writer::fail_locked(std::string error) {
  state_->failed = true;
  if (state_->error.empty()) state_->error = std::move(error);
}

size_t journal_writer::append_bytes(record_kind kind, const void* data, size_t record_size,
                                    size_t count) {
  if (count == 0 || !owned_here()) return 0;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!usable_locked()) return 0;
  state& s = *state_;
  const auto k = static_cast<size_t>(kind);
  open_extent& e = s.records[k];
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (size_t left = count; left > 0;) {
    if (e.base == nullptr || e.room() < record_size) {
      if (!s.open_new(e, records_extent, static_cast<uint32_t>(k),
                      static_cast<uint32_t>(record_size),
                      std::max(record_extent_bytes, record_size))) {
        fail_locked(s.error);
        return count - left;
      }
    }
    const size_t n = std::min<size_t>(left, e.room() / record_size);
    std::memcpy(e.payload() + e.used, bytes, n * record_size);
    e.used += n * record_size;
    e.header()->committed.store(e.used, std::memory_order_release);
    s.extents[e.table_index].bytes = e.used;
    s.counts[k] += n;
    bytes += n * record_size;
    left -= n;
  }
  return count;
}

void journal_writer::append_entry_locked(uint32_t type, const std::string& payload) {
  if (!usable_locked()) return;
  state& s = *state_;
  const size_t need = round_up(sizeof(entry_header) + payload.size(), 8);
  open_extent& e = s.definitions;
  if (e.base == nullptr || e.room() < need) {
    if (!s.open_new(e, definitions_extent, 0, 0, std::max(definitions_extent_bytes, need))) {
      fail_locked(s.error);
      return;
    }
  }
  const entry_header h{type, static_cast<uint32_t>(payload.size())};
  std::memcpy(e.payload() + e.used, &h, sizeof(h));
  std::memcpy(e.payload() + e.used + sizeof(h), payload.data(), payload.size());
  e.used += need;
  e.header()->committed.store(e.used, std::memory_order_release);
  s.extents[e.table_index].bytes = e.used;
}

namespace {

template <typename... Ts>
std::string encode(const Ts&... values) {
  byte_writer out;
  out(values...);
  return out.bytes();
}

}  // namespace

void journal_writer::define_process(const process_info& process, const node_info& node) {
  if (!owned_here()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  append_entry_locked(process_entry, encode(process, node));
}

void journal_writer::define_string(string_id id, std::string_view text) {
  if (!owned_here()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  append_entry_locked(string_entry, encode(id, std::string(text)));
}

void journal_writer::name_thread(int64_t tid, std::string_view name) {
  if (!owned_here()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  append_entry_locked(thread_name_entry, encode(tid, std::string(name)));
}

void journal_writer::observe_thread(int64_t tid, uint64_t start_ns, uint64_t end_ns) {
  if (!owned_here()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  append_entry_locked(thread_window_entry, encode(tid, start_ns, end_ns));
}

void journal_writer::define_agent(const agent_info& agent) {
  if (!owned_here()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  append_entry_locked(agent_entry, encode(agent));
}

void journal_writer::define_code_object(const code_object_info& code_object) {
  if (!owned_here()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  append_entry_locked(code_object_entry, encode(code_object));
}

void journal_writer::define_kernel_symbol(const kernel_symbol_info& symbol) {
  if (!owned_here()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  append_entry_locked(kernel_symbol_entry, encode(symbol));
}

void journal_writer::define_counter(const counter_info& counter) {
  if (!owned_here()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  append_entry_locked(counter_entry, encode(counter));
}

void journal_writer::add_dropped(uint64_t count) {
  if (count == 0) return;
  if (!owned_here()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  append_entry_locked(dropped_entry, encode(count));
}

std::string journal_writer::replay(const std::vector<writer*>& outs, size_t batch_records) {
  if (!owned_here()) return {};
  std::lock_guard<std::mutex> lock(mutex_);
  if (state_->fd < 0) return {};
  // The open extents' bytes are in the page cache: reading the file sees them.
  auto error = replay_extents(state_->fd, state_->extents, outs, batch_records);
  return error.empty() ? error : "the journal '" + path_ + "' could not be read back: " + error;
}

uint64_t journal_writer::total_records() const {
  if (!owned_here()) return 0;
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t total = 0;
  for (uint64_t c : state_->counts)
    total += c;
  return total;
}

std::string journal_writer::last_error() const {
  if (!owned_here()) return {};
  std::lock_guard<std::mutex> lock(mutex_);
  return state_->error;
}

bool journal_writer::failed() const {
  if (!owned_here()) return true;
  std::lock_guard<std::mutex> lock(mutex_);
  return state_->failed;
}

void journal_writer::mark_outputs_written() {
  if (!owned_here()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (state_->header != nullptr)
    state_->header->outputs_written.store(1, std::memory_order_release);
}

void journal_writer::remove() {
  if (!owned_here()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  state& s = *state_;
  if (s.fd < 0) return;
  for (auto& e : s.records)
    s.close_extent(e);
  s.close_extent(s.definitions);
  if (s.header != nullptr) ::munmap(s.header, file_header_size);
  s.header = nullptr;
  ::unlink(path_.c_str());
  ::close(s.fd);  // releases the lock
  s.fd = -1;
}

void journal_writer::abandon_in_forked_child() {
  // No lock: a vanished parent thread may hold it. The mappings stay (unmapping them under a
  // thread of the child that has not noticed yet would fault it); the pid check keeps every
  // call off them. The descriptor goes: the parent keeps the lock through its own.
  abandoned_.store(true);
  if (state_->fd >= 0) ::close(state_->fd);
  state_->fd = -1;
}

}  // namespace rocprof::trace
