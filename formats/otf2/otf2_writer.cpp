// OTF2 writer: the archive (bounded chunk pool, flush policy, open and close), string, region
// and metric references, begin() and finish(). See otf2_writer_impl.hpp for the other files.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <system_error>

#include "common/agent_names.hpp"
#include "otf2/otf2_check.hpp"
#include "otf2/otf2_writer_impl.hpp"

namespace rocprof::trace {
namespace otf2 {
namespace {

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}
// No post-flush callback: with one, OTF2 writes a BufferFlush event after every intermediate
// flush, which would change the archive's events (and their counts) with the chunk policy.
OTF2_FlushCallbacks flush_callbacks{pre_flush, nullptr};

// OTF2's default chunk pool keeps every chunk of an event writer in memory until the writer is
// closed (up to 128 MiB per writer), so the event data of the location being written (the
// largest is a constant fraction of all records) was held in memory at finish(). This pool gives
// each event writer at most event_chunks_per_writer chunks; when they are full, allocate returns
// nullptr, OTF2 flushes them to the file and calls free_all, and the same chunks are reused.
// Definition buffers (bounded by the number of distinct names) get plain heap chunks.
constexpr size_t event_chunks_per_writer = 2;
constexpr uint64_t event_chunk_size = 2 * 1024 * 1024;
constexpr uint64_t definition_chunk_size = 8 * 1024 * 1024;

struct chunk_pool {
  std::vector<void*> chunks;  // owned, each of the chunk size
  size_t used = 0;
};

void* allocate_chunk(void*, OTF2_FileType type, OTF2_LocationRef, void** per_buffer,
                     uint64_t chunk_size) {
  auto* pool = static_cast<chunk_pool*>(*per_buffer);
  if (pool == nullptr) {
    pool = new (std::nothrow) chunk_pool;
    if (pool == nullptr) return nullptr;
    *per_buffer = pool;
  }
  if (type == OTF2_FILETYPE_EVENTS && pool->used == event_chunks_per_writer)
    return nullptr;  // full: OTF2 flushes this writer's chunks and starts over
  if (pool->used < pool->chunks.size()) return pool->chunks[pool->used++];
  void* chunk = std::malloc(static_cast<size_t>(chunk_size));
  if (chunk == nullptr) return nullptr;
  pool->chunks.push_back(chunk);
  ++pool->used;
  return chunk;
}

void free_all_chunks(void*, OTF2_FileType type, OTF2_LocationRef, void** per_buffer, bool final) {
  auto* pool = static_cast<chunk_pool*>(*per_buffer);
  if (pool == nullptr) return;
  pool->used = 0;
  if (final || type != OTF2_FILETYPE_EVENTS) {
    // Definition chunks are not reused (they are written once); a closed writer's go back.
    for (void* chunk : pool->chunks)
      std::free(chunk);
    pool->chunks.clear();
  }
  if (final) {
    delete pool;
    *per_buffer = nullptr;
  }
}
OTF2_MemoryCallbacks memory_callbacks{allocate_chunk, free_all_chunks};

}  // namespace

otf2_writer::otf2_writer(const output_options& options, const otf2_writer_options& otf2_options)
    : options_(options),
      store_(otf2_options.memory_budget,
             std::filesystem::path(options.path_for("results", "otf2")).parent_path().string()) {}

uint32_t otf2_writer::string_ref(std::string_view text) {
  const auto it = string_refs_.find(std::string(text));
  if (it != string_refs_.end()) return it->second;
  const auto ref = static_cast<uint32_t>(strings_.size());
  strings_.emplace_back(text);
  string_refs_.emplace(strings_.back(), ref);
  return ref;
}

uint32_t otf2_writer::region(std::string_view name, OTF2_RegionRole role, OTF2_Paradigm paradigm) {
  const auto key = std::make_pair(name, static_cast<int>(role));
  const auto it = region_refs_.find(key);
  if (it != region_refs_.end()) return it->second;
  const auto ref = static_cast<uint32_t>(regions_.size());
  regions_.push_back({string_ref(name), role, paradigm});
  region_refs_.emplace(key, ref);
  return ref;
}

void otf2_writer::add(const location_key& key, uint64_t start, uint64_t end, uint32_t reg,
                      uint32_t category) {
  end = std::max(start, end);
  min_ts_ = std::min(min_ts_, start);
  max_ts_ = std::max(max_ts_, end);
  store_.add(location_of(key), {start, end, reg, category});
}

size_t otf2_writer::location_of(const location_key& key) {
  const auto [it, inserted] = location_index_.emplace(key, locations_.size());
  if (inserted) locations_.push_back(key);
  return it->second;
}

uint32_t otf2_writer::metric_of(uint64_t counter_id) {
  const auto [it, inserted] =
      metrics_.emplace(counter_id, static_cast<uint32_t>(metric_counters_.size()));
  if (inserted) metric_counters_.push_back(counter_id);
  return it->second;
}

std::string otf2_writer::agent_text(uint64_t agent_id) const {
  const agent_info* a = agent(agent_id);
  if (a == nullptr) return "UNK 0";
  return std::string(formats::agent_type_name(a->type)) + " " +
         formats::agent_label(*a, options_.agent_index, '-');
}

void otf2_writer::begin(const trace_definitions& defs) {
  defs_ = &defs;
  began_ = true;
  kernel_names_.emplace(defs, options_);
  // The spill file (if the trace outgrows the memory budget) lives next to the archive.
  std::error_code ec;
  const auto parent = std::filesystem::path(options_.path_for("results", "otf2")).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  for (const auto& d : domain_table)
    domain_category_[static_cast<size_t>(d.domain)] = string_ref(d.perfetto_category);
  for (size_t i = 0; i < defs.agents.size(); ++i) {
    agents_.emplace(defs.agents[i].id, &defs.agents[i]);
    agent_groups_.emplace(defs.agents[i].id, static_cast<uint32_t>(i + 1));
  }
}

// The archive is written under a private temporary name beside its final one and published
// by renames once complete (the anchor file last: it is what readers open), so a reader never
// finds a half-written archive and a link planted at a name is replaced, never followed.
bool otf2_writer::write_archive() {
  namespace fs = std::filesystem;
  const fs::path anchor = options_.path_for("results", "otf2");
  const fs::path dir = anchor.parent_path().empty() ? fs::path(".") : anchor.parent_path();
  const std::string name = anchor.stem().string();
  const std::string temp = "." + name + "." + std::to_string(::getpid()) + ".partial";
  std::error_code ec;
  fs::create_directories(dir, ec);
  remove_archive(dir, temp);  // a leftover of a dead process that had our pid

  OTF2_Archive* archive =
      OTF2_Archive_Open(dir.c_str(), temp.c_str(), OTF2_FILEMODE_WRITE, event_chunk_size,
                        definition_chunk_size, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (archive == nullptr) {
    error_ = "OTF2_Archive_Open failed for " + (dir / temp).string();
    return false;
  }
  const bool ok = [&] {
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, nullptr));
    ROCPROF_OTF2_CHECK(error_,
                       OTF2_Archive_SetMemoryCallbacks(archive, &memory_callbacks, nullptr));
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_SetSerialCollectiveCallbacks(archive));
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_SetCreator(archive, "rocprofv3-compatible profiler"));
    if (!defs_->node.hostname.empty())
      ROCPROF_OTF2_CHECK(error_,
                         OTF2_Archive_SetMachineName(archive, defs_->node.hostname.c_str()));
    if (!set_properties(archive)) return false;
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_OpenEvtFiles(archive));
    if (!write_events(archive)) return false;
    ROCPROF_OTF2_CHECK(error_, OTF2_Archive_CloseEvtFiles(archive));
    return write_definitions(archive);
  }();
  const OTF2_ErrorCode closed = OTF2_Archive_Close(archive);
  if (ok && closed != OTF2_SUCCESS) {
    error_ = describe_failure("OTF2_Archive_Close(archive)", __FILE__, __LINE__, closed);
  }
  if (!ok || closed != OTF2_SUCCESS || !publish_archive(dir, temp, name)) {
    remove_archive(dir, temp);
    return false;
  }
  return true;
}

// Records lost before they reached the trace (DISCARD policy, backend drops) are an archive
// property (otf2-print -I shows it), present only when some were lost.
bool otf2_writer::set_properties(OTF2_Archive* archive) {
  if (defs_->dropped_records == 0) return true;
  ROCPROF_OTF2_CHECK(
      error_, OTF2_Archive_SetProperty(archive, "ROCPROFV3::DROPPED_RECORDS",
                                       std::to_string(defs_->dropped_records).c_str(), true));
  return true;
}

void otf2_writer::remove_archive(const std::filesystem::path& dir, const std::string& name) {
  std::error_code ec;
  std::filesystem::remove(dir / (name + ".otf2"), ec);
  std::filesystem::remove(dir / (name + ".def"), ec);
  std::filesystem::remove_all(dir / name, ec);  // a link there is removed, not followed
}

bool otf2_writer::publish_archive(const std::filesystem::path& dir, const std::string& temp,
                                  const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // A directory cannot be renamed over a non-empty one: the earlier run's goes aside first.
  const fs::path old_events = dir / (temp + ".old");
  fs::remove_all(old_events, ec);
  const bool had_events = fs::symlink_status(dir / name, ec).type() != fs::file_type::not_found;
  if (had_events) fs::rename(dir / name, old_events, ec);
  for (const char* suffix : {"", ".def", ".otf2"}) {
    fs::rename(dir / (temp + suffix), dir / (name + suffix), ec);
    if (ec) {
      error_ = "cannot rename " + (dir / (temp + suffix)).string() + ": " + ec.message();
      return false;
    }
  }
  if (had_events) fs::remove_all(old_events, ec);
  return true;
}

std::string otf2_writer::finish() {
  if (!began_) return "otf2 writer: finish() without begin()";
  if (!write_archive()) return "otf2 writer: " + error_;
  return {};
}

}  // namespace otf2

std::unique_ptr<writer> make_otf2_writer(const output_options& options) {
  return make_otf2_writer(options, otf2_writer_options{});
}

std::unique_ptr<writer> make_otf2_writer(const output_options& options,
                                         const otf2_writer_options& otf2_options) {
  return std::make_unique<otf2::otf2_writer>(options, otf2_options);
}

}  // namespace rocprof::trace
