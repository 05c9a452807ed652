// Perfetto writer: packets, sequences, interned tables, the beginning and the end of a trace.
#include <algorithm>

#include "perfetto/perfetto_writer_impl.hpp"
#include "rocprof/trace/api_args.hpp"

namespace rocprof::trace::perfetto_impl {

void perfetto_writer::describe_track(uint64_t uuid, uint64_t parent, std::string_view name) {
  const auto packet = start_packet(0, 0);
  const auto td = out_.begin_message(pf::trace_packet::track_descriptor);
  out_.add_varint(pf::track_descriptor::uuid, uuid);
  if (parent != 0) out_.add_varint(pf::track_descriptor::parent_uuid, parent);
  out_.add_bytes(pf::track_descriptor::name, name);
  out_.end_message(td);
  out_.end_packet(packet);
}

void perfetto_writer::describe_thread(uint64_t uuid, int64_t tid, std::string_view name) {
  const auto packet = start_packet(0, 0);
  const auto td = out_.begin_message(pf::trace_packet::track_descriptor);
  out_.add_varint(pf::track_descriptor::uuid, uuid);
  out_.add_varint(pf::track_descriptor::parent_uuid, process_uuid_);
  const auto thread = out_.begin_message(pf::track_descriptor::thread);
  out_.add_int64(pf::thread_descriptor::pid, defs_->process.pid);
  out_.add_int64(pf::thread_descriptor::tid, tid);
  out_.add_bytes(pf::thread_descriptor::thread_name, name);
  out_.end_message(thread);
  out_.end_message(td);
  out_.end_packet(packet);
}

void perfetto_writer::describe_counter(uint64_t uuid, std::string_view name, bool bytes) {
  const auto packet = start_packet(0, 0);
  const auto td = out_.begin_message(pf::trace_packet::track_descriptor);
  out_.add_varint(pf::track_descriptor::uuid, uuid);
  out_.add_varint(pf::track_descriptor::parent_uuid, process_uuid_);
  out_.add_bytes(pf::track_descriptor::name, name);
  const auto cd = out_.begin_message(pf::track_descriptor::counter);
  out_.add_varint(pf::counter_descriptor::unit, bytes ? pf::counter_descriptor::unit_size_bytes
                                                      : pf::counter_descriptor::unit_count);
  out_.end_message(cd);
  out_.end_message(td);
  out_.end_packet(packet);
}

void perfetto_writer::write_interned_tables() {
  const auto interned = out_.begin_message(pf::trace_packet::interned_data);
  for (size_t i = 0; i < category_names.size(); ++i) {
    const auto e = out_.begin_message(pf::interned_data::event_categories);
    out_.add_varint(pf::interned_data::entry_iid, i + 1);
    out_.add_bytes(pf::interned_data::entry_name, category_names[i]);
    out_.end_message(e);
  }
  if (popts_.debug_annotations) {
    for (size_t i = 0; i < arg_names.size(); ++i) {
      const auto e = out_.begin_message(pf::interned_data::debug_annotation_names);
      out_.add_varint(pf::interned_data::entry_iid, i + 1);
      out_.add_bytes(pf::interned_data::entry_name, arg_names[i]);
      out_.end_message(e);
    }
  }
  out_.end_message(interned);
}

// First packet of a lane's sequence: clears incremental state, sets the lane's track as the
// default and interns the fixed tables (categories, annotation names).
void perfetto_writer::start_sequence(lane_sequence& sequence) {
  // Sequence ids: the process's base id, then one per lane, wrapping below 2^28 so an id takes
  // at most 4 varint bytes in every packet; never 0.
  sequence.id = 1 + (sequence_id_ + ++last_sequence_id_) % ((1u << 28) - 2);
  const auto packet = start_packet_on(
      sequence.id, 0,
      pf::sequence_flags::incremental_state_cleared | pf::sequence_flags::needs_incremental_state);
  out_.add_bool(pf::trace_packet::first_packet_on_sequence, true);
  const auto defaults = out_.begin_message(pf::trace_packet::trace_packet_defaults);
  const auto te_defaults = out_.begin_message(pf::trace_packet_defaults::track_event_defaults);
  out_.add_varint(pf::track_event_defaults::track_uuid, sequence.track_uuid);
  out_.end_message(te_defaults);
  out_.end_message(defaults);
  write_interned_tables();
  out_.end_packet(packet);
}

void perfetto_writer::counter(uint64_t timestamp, uint64_t track, double value) {
  const auto packet = start_packet(timestamp, 0);
  const auto te = out_.begin_message(pf::trace_packet::track_event);
  out_.add_varint(pf::track_event::type, pf::track_event::type_counter);
  out_.add_varint(pf::track_event::track_uuid, track);
  out_.add_double(pf::track_event::double_counter_value, value);
  out_.end_message(te);
  out_.end_packet(packet);
}

void perfetto_writer::counter(uint64_t timestamp, uint64_t track, int64_t value) {
  const auto packet = start_packet(timestamp, 0);
  const auto te = out_.begin_message(pf::trace_packet::track_event);
  out_.add_varint(pf::track_event::type, pf::track_event::type_counter);
  out_.add_varint(pf::track_event::track_uuid, track);
  out_.add_int64(pf::track_event::counter_value, value);
  out_.end_message(te);
  out_.end_packet(packet);
}

void perfetto_writer::arg_uint(arg id, uint64_t value) {
  const auto a = out_.begin_message(pf::track_event::debug_annotations);
  out_.add_varint(pf::debug_annotation::name_iid, static_cast<uint64_t>(id));
  out_.add_varint(pf::debug_annotation::uint_value, value);
  out_.end_message(a);
}

void perfetto_writer::arg_int(arg id, int64_t value) {
  const auto a = out_.begin_message(pf::track_event::debug_annotations);
  out_.add_varint(pf::debug_annotation::name_iid, static_cast<uint64_t>(id));
  out_.add_int64(pf::debug_annotation::int_value, value);
  out_.end_message(a);
}

void perfetto_writer::arg_string(arg id, std::string_view value) {
  const auto a = out_.begin_message(pf::track_event::debug_annotations);
  out_.add_varint(pf::debug_annotation::name_iid, static_cast<uint64_t>(id));
  out_.add_bytes(pf::debug_annotation::string_value, value);
  out_.end_message(a);
}

void perfetto_writer::named_string(std::string_view name, std::string_view value) {
  const auto a = out_.begin_message(pf::track_event::debug_annotations);
  out_.add_bytes(pf::debug_annotation::name, name);
  out_.add_bytes(pf::debug_annotation::string_value, value);
  out_.end_message(a);
}

void perfetto_writer::named_uint(std::string_view name, uint64_t value) {
  const auto a = out_.begin_message(pf::track_event::debug_annotations);
  out_.add_bytes(pf::debug_annotation::name, name);
  out_.add_varint(pf::debug_annotation::uint_value, value);
  out_.end_message(a);
}

void perfetto_writer::api_args(std::string_view text) {
  for_each_api_arg(text, [this](const api_arg_view& a) {
    // An argument named like one of the slice's own annotations (cudaMemcpy's "kind") gets a
    // suffix, so that both survive in the viewer.
    const bool taken = std::find(arg_names.begin(), arg_names.end(), a.name) != arg_names.end();
    if (taken)
      named_string(std::string(a.name) + "_arg", a.value);
    else
      named_string(a.name, a.value);
  });
  const auto r = out_.begin_message(pf::track_event::debug_annotations);
  out_.add_bytes(pf::debug_annotation::name, "retval");
  out_.add_int64(pf::debug_annotation::int_value, api_args_retval(text));
  out_.end_message(r);
}

// --------------------------------------------------------------------------------------------

void perfetto_writer::begin(const trace_definitions& defs) {
  defs_ = &defs;
  began_ = true;
  process_hash_ = mix(fnv1a(defs.node.hostname) ^ static_cast<uint64_t>(defs.process.pid));
  // Below 2^28 so the id takes at most 4 varint bytes in every packet; never 0.
  sequence_id_ = static_cast<uint32_t>(1 + (process_hash_ >> 32) % ((1u << 28) - 2));
  stream_mode_ = !options_.group_by_queue && !defs.streams.empty();
  keep_dispatch_spans_ = !defs.counters.empty();

  for (const auto& a : defs.agents)
    agents_.emplace(a.id, &a);
  for (const auto& k : defs.kernel_symbols)
    kernels_.emplace(k.kernel_id, &k);
  for (const auto& c : defs.counters)
    counter_names_.emplace(c.id, c.name);

  if (!out_.open(options_.path_for("results", "pftrace"))) return;

  // The main sequence carries descriptors and counters; it interns nothing but is marked
  // cleared so readers treat it as complete from its first packet.
  {
    const auto packet = start_packet(0, pf::sequence_flags::incremental_state_cleared);
    out_.add_bool(pf::trace_packet::first_packet_on_sequence, true);
    out_.end_packet(packet);
  }

  // The process track.
  process_uuid_ = new_uuid();
  {
    const auto& command = defs.process.command;
    process_name_ = command.empty() ? std::string("process")
                                    : std::filesystem::path(command.front()).filename().string();
    const auto packet = start_packet(0, 0);
    const auto td = out_.begin_message(pf::trace_packet::track_descriptor);
    out_.add_varint(pf::track_descriptor::uuid, process_uuid_);
    const auto pd = out_.begin_message(pf::track_descriptor::process);
    out_.add_int64(pf::process_descriptor::pid, defs.process.pid);
    for (const auto& a : command)
      out_.add_bytes(pf::process_descriptor::cmdline, a);
    out_.add_bytes(pf::process_descriptor::process_name,
                   options_.process_label.empty() ? process_name_ : options_.process_label);
    out_.end_message(pd);
    out_.end_message(td);
    out_.end_packet(packet);
  }

  // Known threads, described in ascending tid order so that unnamed ones are numbered in it.
  std::vector<const thread_info*> threads;
  for (const auto& t : defs.threads)
    threads.push_back(&t);
  std::sort(threads.begin(), threads.end(),
            [](const thread_info* x, const thread_info* y) { return x->tid < y->tid; });
  for (const thread_info* t : threads) {
    if (threads_.count(t->tid) != 0) continue;
    lane_track& track = threads_[t->tid];
    track.name = t->name.empty() ? default_thread_name(t->tid) : t->name;
    track.parent = process_uuid_;
    add_thread_lane(track, t->tid);
  }
}

std::string perfetto_writer::finish() {
  if (!began_) return "perfetto writer: finish() without begin()";
  for (const counter_value_record& v : pending_counter_values_) {
    const auto span = dispatch_spans_.find(v.dispatch_id);
    if (span != dispatch_spans_.end()) emit_pmc(v, span->second.start, span->second.end);
  }
  pending_counter_values_.clear();
  write_pc_hotspots();
  // Records lost before they reached the trace: a counter track of the process with one value,
  // at the end of the run, only when some were lost.
  if (defs_->dropped_records != 0) {
    const uint64_t track = new_uuid();
    describe_counter(track, "DROPPED RECORDS", false);
    counter(std::max(defs_->process.fini_ns, defs_->process.init_ns), track,
            static_cast<int64_t>(defs_->dropped_records));
  }
  if (!out_.close()) return "perfetto writer: " + out_.error();
  return {};
}

}  // namespace rocprof::trace::perfetto_impl

namespace rocprof::trace {

std::unique_ptr<writer> make_perfetto_writer(const output_options& options) {
  return make_perfetto_writer(options, perfetto_writer_options{});
}

std::unique_ptr<writer> make_perfetto_writer(const output_options& options,
                                             const perfetto_writer_options& perfetto_options) {
  return std::make_unique<perfetto_impl::perfetto_writer>(options, perfetto_options);
}

}  // namespace rocprof::trace
