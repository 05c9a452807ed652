#include "rocprof/trace/output_plan.hpp"

#include <array>
#include <cstring>
#include <memory>

#include "rocprof/trace/staged_file.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace rocprof::trace {
namespace {

template <typename T>
void write_typed(const void* bytes, size_t count, const std::vector<writer*>& outs) {
  // Copy into typed storage: the bytes carry no alignment or type guarantee.
  std::vector<T> typed(count);
  std::memcpy(static_cast<void*>(typed.data()), bytes, count * sizeof(T));
  for (auto* out : outs)
    out->write(make_span(typed));
}

// write_typed<T> of every kind, indexed by kind: the list in model.hpp names the kinds.
using write_function = void (*)(const void*, size_t, const std::vector<writer*>&);
template <typename... Ts>
constexpr std::array<write_function, sizeof...(Ts)> writers_of(type_list<Ts...>) {
  return {&write_typed<Ts>...};
}
constexpr auto typed_writers = writers_of(record_types{});

std::string parent_directory(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

}  // namespace

void write_record_bytes(record_kind kind, const void* bytes, size_t count,
                        const std::vector<writer*>& outs) {
  if (count != 0) typed_writers[static_cast<size_t>(kind)](bytes, count, outs);
}

output_report run_output_plan(const output_plan& plan, const trace_definitions& defs,
                              uint64_t records, const record_replay& replay) {
  output_report report;
  // rocprofv3 writes trace outputs only when some domain has data and the recorded bytes reach
  // --minimum-output-data; the config file is written regardless.
  const uint64_t bytes = records * sizeof(api_record);  // approximate: records are similar
  const bool enough = records > 0 && bytes >= plan.minimum_output_bytes;

  std::vector<std::unique_ptr<writer>> owned;
  std::vector<writer*> writers;
  std::vector<std::string> names;  // parallel to owned
  for (const auto& name : plan.writers) {
    if (!enough && name != "config") {
      report.skipped = true;
      continue;
    }
    std::string error;
    auto made = make_writer(name, plan.options, &error);
    if (!made) {
      report.errors.push_back("output format '" + name + "': " + error);
      continue;
    }
    writers.push_back(made.get());
    owned.push_back(std::move(made));
    names.push_back(name);
  }
  if (writers.empty()) return report;

  const auto error = create_parent_directories(parent_directory(plan.options.path_for("x", "y")));
  if (!error.empty()) report.errors.push_back(error);
  for (auto* out : writers)
    out->begin(defs);
  if (enough) replay(writers);
  for (size_t i = 0; i < owned.size(); ++i) {
    std::string finished = owned[i]->finish();
    if (finished.empty())
      report.written.push_back(names[i]);
    else
      report.errors.push_back(finished);
  }
  return report;
}

}  // namespace rocprof::trace
