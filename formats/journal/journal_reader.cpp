#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "journal/journal_codec.hpp"
#include "journal/journal_layout.hpp"
#include "rocprof/trace/journal.hpp"

namespace rocprof::trace {

using namespace journal;

namespace {

bool read_at(int fd, void* to, size_t size, uint64_t offset) {
  auto* p = static_cast<unsigned char*>(to);
  while (size > 0) {
    const ssize_t n = ::pread(fd, p, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
    offset += static_cast<uint64_t>(n);
  }
  return true;
}

}  // namespace

namespace journal {

std::string replay_extents(int fd, const std::vector<journal_extent>& extents,
                           const std::vector<writer*>& outs, size_t batch_records) {
  batch_records = std::max<size_t>(batch_records, 1);
  std::vector<unsigned char> buffer;
  for (const journal_extent& e : extents) {
    if (e.type != records_extent || e.record_size == 0) continue;
    const uint64_t count = e.bytes / e.record_size;
    for (uint64_t first = 0; first < count; first += batch_records) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(count - first, batch_records));
      buffer.resize(n * e.record_size);
      if (!read_at(fd, buffer.data(), buffer.size(),
                   e.offset + sizeof(extent_header) + first * e.record_size))
        return std::strerror(errno ? errno : EIO);
      write_record_bytes(static_cast<record_kind>(e.kind), buffer.data(), n, outs);
    }
  }
  return {};
}

}  // namespace journal

journal_reader::journal_reader() {
  defs_.strings.emplace_back();  // id 0 is the empty string
}

journal_reader::~journal_reader() {
  if (fd_ >= 0) ::close(fd_);
}

bool journal_reader::open(const std::string& path, std::string* error, bool* busy) {
  auto fail = [&](std::string why) {
    if (error) *error = "journal '" + path + "': " + why;
    return false;
  };
  fd_ = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd_ < 0) return fail(std::strerror(errno));
  // The writer holds the lock for its whole life: getting it means the writer is gone.
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (busy) *busy = errno == EWOULDBLOCK;
    return fail("its process is still running");
  }
  file_header header{};
  if (!read_at(fd_, &header, sizeof(header), 0) ||
      std::memcmp(header.magic, file_magic, sizeof(file_magic)) != 0)
    return fail("not a journal");
  if (header.version != layout_version || header.kind_count != record_kind_count)
    return fail("written by another build");
  for (size_t k = 0; k < record_kind_count; ++k)
    if (header.record_sizes[k] != record_sizes[k]) return fail("written by another build");
  recognized_ = true;
  pid_ = header.pid;
  outputs_written_ = header.outputs_written.load() != 0;

  bool have_plan = false;
  std::vector<unsigned char> payload;
  for (uint64_t offset = file_header_size;;) {
    extent_header h;
    if (!read_at(fd_, &h, sizeof(h), offset) || h.magic.load() != extent_magic) break;
    journal_extent e{offset,        h.type,     h.kind,
                     h.record_size, h.capacity, std::min<uint64_t>(h.committed.load(), h.capacity)};
    offset += sizeof(extent_header) + h.capacity;
    if (e.type == records_extent) {
      if (e.kind >= record_kind_count || e.record_size != record_sizes[e.kind]) {
        warnings_.push_back("an extent of an unknown record kind was skipped");
        continue;
      }
      e.bytes -= e.bytes % e.record_size;
      extents_.push_back(e);
    } else if (e.type == definitions_extent) {
      payload.resize(e.bytes);
      if (!read_at(fd_, payload.data(), payload.size(), e.offset + sizeof(extent_header))) break;
      have_plan = read_definitions(payload) || have_plan;
    }
  }
  if (!have_plan) return fail("it holds no output plan (its process died while creating it)");
  // The process had no end of its own: its last record is when it was last seen alive.
  uint64_t last = defs_.process.init_ns;
  for (const auto& t : defs_.threads)
    last = std::max(last, t.end_ns);
  if (defs_.process.fini_ns == 0) defs_.process.fini_ns = last;
  if (defs_.process.end_ns == 0) defs_.process.end_ns = last;
  return true;
}

// Returns whether the output plan was among the entries.
bool journal_reader::read_definitions(const std::vector<unsigned char>& payload) {
  bool plan_seen = false;
  size_t at = 0;
  while (at + sizeof(entry_header) <= payload.size()) {
    entry_header h;
    std::memcpy(&h, payload.data() + at, sizeof(h));
    const size_t body = at + sizeof(h);
    if (h.type == 0 || body + h.size > payload.size()) break;
    byte_reader in{std::string_view(reinterpret_cast<const char*>(payload.data() + body), h.size)};
    at = round_up(body + h.size, 8);
    switch (h.type) {
      case plan_entry:
        in(plan_);
        plan_seen = in.ok();
        break;
      case process_entry:
        in(defs_.process, defs_.node);
        break;
      case string_entry: {
        string_id id = 0;
        std::string text;
        in(id, text);
        if (!in.ok()) break;
        if (defs_.strings.size() <= id) defs_.strings.resize(size_t{id} + 1);
        defs_.strings[id] = std::move(text);
        break;
      }
      case thread_name_entry: {
        int64_t tid = 0;
        std::string name;
        in(tid, name);
        if (in.ok()) thread(tid).name = std::move(name);
        break;
      }
      case thread_window_entry: {
        int64_t tid = 0;
        uint64_t start = 0, end = 0;
        in(tid, start, end);
        if (!in.ok()) break;
        thread_info& t = thread(tid);
        if (start != 0 && (t.start_ns == 0 || start < t.start_ns)) t.start_ns = start;
        t.end_ns = std::max(t.end_ns, end);
        break;
      }
      case agent_entry:
        in(defs_.agents.emplace_back());
        break;
      case code_object_entry:
        in(defs_.code_objects.emplace_back());
        break;
      case kernel_symbol_entry:
        in(defs_.kernel_symbols.emplace_back());
        break;
      case counter_entry:
        in(defs_.counters.emplace_back());
        break;
      case dropped_entry: {
        uint64_t n = 0;
        in(n);
        if (in.ok()) defs_.dropped_records += n;
        break;
      }
      default:
        break;  // a newer entry type: skipped
    }
    if (!in.ok()) warnings_.push_back("a damaged definition entry was skipped");
  }
  return plan_seen;
}

thread_info& journal_reader::thread(int64_t tid) {
  const auto [it, inserted] = thread_index_.emplace(tid, defs_.threads.size());
  if (inserted) defs_.threads.emplace_back().tid = tid;
  return defs_.threads[it->second];
}

uint64_t journal_reader::total_records() const {
  uint64_t total = 0;
  for (const auto& e : extents_)
    total += e.bytes / e.record_size;
  return total;
}

void journal_reader::replay(const std::vector<writer*>& outs, size_t batch_records) {
  auto error = replay_extents(fd_, extents_, outs, batch_records);
  if (!error.empty()) warnings_.push_back("reading records failed: " + error);
}

}  // namespace rocprof::trace
