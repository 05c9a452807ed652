#include "definitions_builder.hpp"

#include <fcntl.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <utility>

#include "rocprof/common/mpi_rank.hpp"

extern char** environ;

namespace rocprof::tool {
namespace {

// Plain read(): /proc files report size 0, and iostream iterators trip -Wnull-dereference.
std::string read_text_file(const std::string& path) {
  std::string text;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return text;
  char chunk[4096];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(chunk, static_cast<size_t>(n));
  }
  ::close(fd);
  return text;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r'))
    s.pop_back();
  return s;
}

// Process start time on CLOCK_BOOTTIME: /proc/self/stat field 22 is in clock ticks since boot.
uint64_t process_start_ns() {
  std::string stat = read_text_file("/proc/self/stat");
  auto close_paren = stat.rfind(')');
  if (close_paren == std::string::npos) return 0;
  std::istringstream fields(stat.substr(close_paren + 2));
  std::string field;
  // Fields after "(comm)" start at number 3 (state); starttime is number 22.
  for (int index = 3; index <= 22 && (fields >> field); ++index) {
    if (index == 22) {
      const long ticks = ::sysconf(_SC_CLK_TCK);
      if (ticks <= 0) return 0;
      return std::stoull(field) * (1000000000ULL / static_cast<uint64_t>(ticks));
    }
  }
  return 0;
}

}  // namespace

trace::node_info read_node_info() {
  trace::node_info node;
  struct utsname names {};
  if (::uname(&names) == 0) {
    node.system_name = names.sysname;
    node.hostname = names.nodename;
    node.release = names.release;
    node.version = names.version;
    node.hardware_name = names.machine;
#ifdef _GNU_SOURCE
    node.domain_name = names.domainname;
#endif
  }
  node.machine_id = trim(read_text_file("/etc/machine-id"));
  if (node.machine_id.empty()) node.machine_id = node.hostname;
  // The rocpd identifiers (§4.3): hash(machine_id) % INT64_MAX, then % UINT32_MAX for the id.
  const uint64_t hash = std::hash<std::string>{}(node.machine_id);
  node.hash = hash % static_cast<uint64_t>(INT64_MAX);
  node.id = node.hash % static_cast<uint64_t>(UINT32_MAX);
  return node;
}

definitions_builder::definitions_builder() {
  reset();
}

void definitions_builder::reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  defs_ = trace::trace_definitions{};
  defs_.strings.emplace_back();  // id 0 is the empty string
  string_ids_.clear();
  string_ids_.emplace(std::string(), trace::empty_string);
  thread_index_.clear();
  bounded_bytes_ = 0;
}

trace::string_id definitions_builder::intern(std::string_view text) {
  return intern_within(text, UINT64_MAX);
}

trace::string_id definitions_builder::intern_within(std::string_view text, uint64_t limit_bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  // One hash and one key copy for a new text (it was two of each: a find, then an emplace).
  const auto id = static_cast<trace::string_id>(defs_.strings.size());
  const auto [found, added] = string_ids_.try_emplace(std::string(text), id);
  if (!added) return found->second;
  if (limit_bytes != UINT64_MAX) {
    if (bounded_bytes_ > limit_bytes || text.size() > limit_bytes - bounded_bytes_) {
      string_ids_.erase(found);
      return trace::empty_string;
    }
    bounded_bytes_ += text.size();
  }
  try {
    defs_.strings.emplace_back(text);
  } catch (...) {
    string_ids_.erase(found);  // no id without its text
    throw;
  }
  if (journal_) journal_->define_string(id, text);
  return id;
}

void definitions_builder::observe_thread(int64_t tid, uint64_t start_ns, uint64_t end_ns) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = thread_index_.find(tid);
  if (found == thread_index_.end()) {
    found = thread_index_.emplace(tid, defs_.threads.size()).first;
    trace::thread_info info;
    info.tid = tid;
    defs_.threads.push_back(std::move(info));
  }
  auto& info = defs_.threads[found->second];
  widen_thread_window(info.start_ns, info.end_ns, start_ns, end_ns);
  if (journal_) journal_->observe_thread(tid, start_ns, end_ns);
}

void definitions_builder::name_thread(int64_t tid, std::string_view name) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (journal_) journal_->name_thread(tid, name);
  auto found = thread_index_.find(tid);
  if (found == thread_index_.end()) {
    trace::thread_info info;
    info.tid = tid;
    info.name = std::string(name);
    thread_index_.emplace(tid, defs_.threads.size());
    defs_.threads.push_back(std::move(info));
    return;
  }
  defs_.threads[found->second].name = std::string(name);
}

void definitions_builder::fill_missing_thread_names() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& thread : defs_.threads) {
    if (!thread.name.empty()) continue;
    thread.name = trim(read_text_file("/proc/self/task/" + std::to_string(thread.tid) + "/comm"));
  }
}

void definitions_builder::add_agent(trace::agent_info agent) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& known : defs_.agents)
    if (known.id == agent.id) return;
  if (journal_) journal_->define_agent(agent);
  defs_.agents.push_back(std::move(agent));
}

void definitions_builder::add_code_object(trace::code_object_info code_object) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (journal_) journal_->define_code_object(code_object);
  defs_.code_objects.push_back(std::move(code_object));
}

void definitions_builder::add_kernel_symbol(trace::kernel_symbol_info symbol) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (journal_) journal_->define_kernel_symbol(symbol);
  defs_.kernel_symbols.push_back(std::move(symbol));
}

void definitions_builder::add_counter(trace::counter_info counter) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (journal_) journal_->define_counter(counter);
  defs_.counters.push_back(std::move(counter));
}

void definitions_builder::add_dropped(uint64_t count) {
  std::lock_guard<std::mutex> lock(mutex_);
  defs_.dropped_records += count;
  if (journal_) journal_->add_dropped(count);
}

uint64_t definitions_builder::dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return defs_.dropped_records;
}

void definitions_builder::capture_process_identity() {
  trace::process_info process;
  process.pid = ::getpid();
  process.ppid = ::getppid();
  process.start_ns = process_start_ns();
  const std::string cmdline = read_text_file("/proc/self/cmdline");
  for (size_t begin = 0; begin < cmdline.size();) {
    size_t end = cmdline.find('\0', begin);
    if (end == std::string::npos) end = cmdline.size();
    process.command.push_back(cmdline.substr(begin, end - begin));
    begin = end + 1;
  }
  for (char** env = environ; env != nullptr && *env != nullptr; ++env) {
    std::string entry(*env);
    const auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    process.environment[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  // The rank the CLI found (it exports the variables it read), else the launcher's own.
  const char* rank_var = std::getenv("ROCPROF_MPI_RANK_VAR");
  const char* size_var = std::getenv("ROCPROF_MPI_SIZE_VAR");
  if (const auto mpi =
          common::detect_mpi_rank([](const char* n) { return std::getenv(n); },
                                  rank_var ? rank_var : "", size_var ? size_var : "")) {
    process.mpi_rank = mpi->rank;
    process.mpi_size = mpi->size;
  }
  trace::node_info node = read_node_info();
  std::lock_guard<std::mutex> lock(mutex_);
  process.init_ns = defs_.process.init_ns;
  process.fini_ns = defs_.process.fini_ns;
  process.config_json = std::move(defs_.process.config_json);
  process.realtime_offset_start_ns = defs_.process.realtime_offset_start_ns;
  process.realtime_offset_end_ns = defs_.process.realtime_offset_end_ns;
  defs_.process = std::move(process);
  defs_.node = std::move(node);
}

void definitions_builder::set_tool_times(uint64_t init_ns, uint64_t fini_ns) {
  std::lock_guard<std::mutex> lock(mutex_);
  // The clock offsets `rocpd merge` aligns hosts with, measured beside each tool time.
  const int64_t offset = common::realtime_minus_boottime_ns();
  if (init_ns != 0) defs_.process.realtime_offset_start_ns = offset;
  if (fini_ns != 0) defs_.process.realtime_offset_end_ns = offset;
  if (init_ns != 0) defs_.process.init_ns = init_ns;
  if (fini_ns != 0) defs_.process.fini_ns = fini_ns;
  if (fini_ns != 0) defs_.process.end_ns = fini_ns;
}

void definitions_builder::set_config_json(std::string json) {
  std::lock_guard<std::mutex> lock(mutex_);
  defs_.process.config_json = std::move(json);
}

void definitions_builder::attach_journal(trace::journal_writer* journal) {
  std::lock_guard<std::mutex> lock(mutex_);
  journal_ = journal;
  if (journal == nullptr) return;
  journal->define_process(defs_.process, defs_.node);
  for (size_t id = 1; id < defs_.strings.size(); ++id)
    journal->define_string(static_cast<trace::string_id>(id), defs_.strings[id]);
  for (const auto& t : defs_.threads) {
    if (!t.name.empty()) journal->name_thread(t.tid, t.name);
    journal->observe_thread(t.tid, t.start_ns, t.end_ns);
  }
  for (const auto& a : defs_.agents)
    journal->define_agent(a);
  for (const auto& c : defs_.code_objects)
    journal->define_code_object(c);
  for (const auto& k : defs_.kernel_symbols)
    journal->define_kernel_symbol(k);
  for (const auto& c : defs_.counters)
    journal->define_counter(c);
  journal->add_dropped(defs_.dropped_records);
}

trace::trace_definitions definitions_builder::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return defs_;
}

}  // namespace rocprof::tool
