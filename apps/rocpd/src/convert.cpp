// `rocpd convert`: every process of every input read back into the trace model and handed to
// the same writers a live run uses. CSV files and the Perfetto trace hold every process (the
// per-process files are concatenated: CSV under one header, Perfetto packets as they are, which
// a trace allows); JSON and OTF2 get one file per process when there are several, named with
// the process's rank (MPI) or pid. PC samples go to the live run's files as well:
// pc_sampling_{host_trap,stochastic}.csv, the JSON pc_sample_* arrays and the hot-spot CSV
// (AMD's rocpd convert has no PC-sampling output; the names are rocprofv3's live ones).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "commands.hpp"
#include "inputs.hpp"
#include "progress.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace rocprof::rocpd_cli {
namespace {

namespace fs = std::filesystem;
using formats::rocpd::read_options;

bool concatenated(const std::string& format) {
  return format == "csv" || format == "pftrace";
}

trace::agent_index_mode index_mode(const std::string& text) {
  if (text == "absolute") return trace::agent_index_mode::absolute;
  if (text == "type-relative") return trace::agent_index_mode::type_relative;
  return trace::agent_index_mode::relative;
}

std::string process_label(const trace::trace_definitions& defs) {
  if (defs.process.mpi_rank < 0) return {};
  return "rank " + std::to_string(defs.process.mpi_rank) + " (" + defs.node.hostname + ", " +
         std::to_string(defs.process.pid) + ")";
}

// Moves one per-process file into the output directory: the first file of a name in this run
// replaces any older one, later ones are appended (a CSV without its header line).
void collect(const fs::path& from, const fs::path& to, std::set<std::string>& written) {
  std::error_code ec;
  if (written.insert(to.string()).second) {
    fs::remove(to, ec);
    fs::rename(from, to, ec);
    if (!ec) return;
    fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
    if (ec) throw usage_error("cannot write " + to.string() + ": " + ec.message());
    return;
  }
  std::ifstream in(from, std::ios::binary);
  std::ofstream out(to, std::ios::binary | std::ios::app);
  if (from.extension() == ".csv") {
    std::string header;
    std::getline(in, header);
  }
  out << in.rdbuf();
  if (!out) throw usage_error("cannot append to " + to.string());
}

}  // namespace

int run_convert(const rocpd_args& args, std::ostream& out) {
  auto inputs = open_inputs(args);
  const auto window = resolve_window(args, inputs);
  std::vector<std::string> formats;
  for (const auto& f : args.list("output_format"))
    if (std::find(formats.begin(), formats.end(), f) == formats.end()) formats.push_back(f);
  const std::string dir = output_directory(args);
  const std::string name = output_name(args);
  size_t processes = 0;
  for (const auto& in : inputs)
    processes += in->processes().size();

  const fs::path staging = fs::path(dir) / (".rocpd-convert-" + std::to_string(::getpid()));
  std::error_code ec;
  fs::create_directories(staging, ec);
  if (ec) throw usage_error("cannot create " + staging.string() + ": " + ec.message());
  std::set<std::string> written;
  const auto cleanup = [&] { fs::remove_all(staging, ec); };

  try {
    size_t index = 0;
    for (auto& in : inputs) {
      for (size_t p = 0; p < in->processes().size(); ++p, ++index) {
        trace::trace_definitions defs;
        std::string error;
        if (!in->read_definitions(p, defs, &error)) throw usage_error(error);
        trace::output_options staged;
        staged.output_directory = staging.string();
        staged.file_prefix = "p";
        staged.agent_index = index_mode(args.text("agent_index_value"));
        staged.kernel_rename = args.flag("kernel_rename");
        staged.group_by_queue = args.flag("group_by_queue");
        staged.process_label = process_label(defs);
        trace::output_options direct = staged;
        direct.output_directory = dir;
        direct.file_prefix = name;
        if (processes > 1) {
          const auto& src = in->processes()[p];
          direct.file_prefix += src.mpi_rank >= 0 ? "_rank" + std::to_string(src.mpi_rank)
                                                  : "_" + std::to_string(src.pid);
        }
        std::vector<std::unique_ptr<trace::writer>> writers;
        std::vector<trace::writer*> sinks;
        for (const auto& f : formats) {
          auto w = trace::make_writer(f, concatenated(f) ? staged : direct, &error);
          if (!w) throw usage_error("unknown output format '" + f + "': " + error);
          w->begin(defs);
          sinks.push_back(w.get());
          writers.push_back(std::move(w));
        }
        // PC samples also give the hot-spot CSV, whatever the formats, as in a live run (a
        // database without samples: the writer writes nothing).
        auto hotspots = trace::make_writer("pc_hotspots", staged, &error);
        if (!hotspots) throw usage_error(error);
        hotspots->begin(defs);
        sinks.push_back(hotspots.get());
        writers.push_back(std::move(hotspots));
        progress_bar bar{"convert " + std::to_string(index + 1) + "/" + std::to_string(processes),
                         in->record_rows(p)};
        read_options options;
        options.window = window;
        options.progress = [&bar](uint64_t done) { bar.update(done); };
        if (!in->read_records(p, defs, options, sinks, nullptr, &error)) throw usage_error(error);
        for (auto& w : writers)
          if (auto e = w->finish(); !e.empty()) throw usage_error(e);
        std::vector<fs::path> staged_files;
        for (const auto& entry : fs::directory_iterator(staging))
          staged_files.push_back(entry.path());
        std::sort(staged_files.begin(), staged_files.end());
        for (const auto& file : staged_files) {
          const std::string stem = file.filename().string();  // "p_<what>.<ext>"
          collect(file, fs::path(dir) / (name + stem.substr(1)), written);
        }
      }
    }
  } catch (...) {
    cleanup();
    throw;
  }
  cleanup();
  for (const auto& f : written)
    out << "rocpd: wrote " << f << "\n";
  return 0;
}

}  // namespace rocprof::rocpd_cli
