// `rocpd merge` (one database from many, ranks aligned on wall-clock time) and `rocpd package`
// (an index.yaml describing a set of databases, optionally copied or consolidated beside it).
#include <algorithm>
#include <filesystem>
#include <fstream>

#include "commands.hpp"
#include "inputs.hpp"
#include "progress.hpp"
#include "rocprof/formats/rocpd_database.hpp"

namespace rocprof::rocpd_cli {
namespace {

namespace fs = std::filesystem;

std::string merged_path(const rocpd_args& args, const std::string& name) {
  std::string file = name;
  if (file.size() < 3 || file.compare(file.size() - 3, 3, ".db") != 0) file += ".db";
  return (fs::path(output_directory(args)) / file).string();
}

// YAML scalar: quoted when it could be read as something else.
std::string yaml_text(const std::string& s) {
  std::string out = "\"";
  for (char c : s)
    out += c == '"' || c == '\\' ? std::string{"\\"} + c : std::string(1, c);
  return out + "\"";
}

}  // namespace

int run_merge(const rocpd_args& args, std::ostream& out) {
  (void)open_inputs(args);  // one clear error for a bad input first
  const std::string path =
      merged_path(args, args.given("output_file") ? output_name(args) : std::string{"merged"});
  formats::rocpd::merge_report report;
  std::string error;
  progress_bar bar{"merge", args.list("input").size()};
  if (!formats::rocpd::merge_databases(args.list("input"), path, &report, &error,
                                       [&bar](size_t done, size_t) { bar.update(done); }))
    throw usage_error(error);
  out << "rocpd: merged " << report.processes << " process(es) into " << path << "\n";
  for (const auto& s : report.shifts)
    out << "  pid " << s.pid << (s.rank >= 0 ? " rank " + std::to_string(s.rank) : "") << " ("
        << s.hostname << "): shifted " << s.shift_ns << " ns, clock drift during the run "
        << s.drift_ns << " ns\n";
  return 0;
}

int run_package(const rocpd_args& args, std::ostream& out) {
  const auto inputs = open_inputs(args);
  const fs::path dir = output_directory(args);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw usage_error("cannot create " + dir.string() + ": " + ec.message());
  std::vector<std::string> files;
  if (args.flag("consolidate")) {
    const std::string path =
        merged_path(args, args.given("output_file") ? output_name(args) : std::string{"merged"});
    std::string error;
    if (!formats::rocpd::merge_databases(args.list("input"), path, nullptr, &error))
      throw usage_error(error);
    files.push_back(path);
  } else {
    for (const auto& in : args.list("input")) {
      if (!args.flag("copy")) {
        files.push_back(fs::absolute(in).string());
        continue;
      }
      // Databases of several runs share names (run_results.db): number the later ones.
      fs::path to = dir / fs::path(in).filename();
      for (int n = 1; std::find(files.begin(), files.end(), to.string()) != files.end(); ++n)
        to = dir / (std::to_string(n) + "_" + fs::path(in).filename().string());
      fs::copy_file(in, to, fs::copy_options::overwrite_existing, ec);
      if (ec) throw usage_error("cannot copy " + in + " to " + to.string() + ": " + ec.message());
      files.push_back(to.string());
    }
  }
  std::string error;
  std::ofstream index(dir / "index.yaml", std::ios::trunc);
  index << "# rocpd package index: one entry per database, one per process within it\n"
        << "rocpd_schema_version: 3\n"
        << "databases:\n";
  for (const auto& file : files) {
    auto reader = formats::rocpd::database_reader::open(file, &error);
    if (!reader) throw usage_error(error);
    const fs::path rel = fs::path(file).lexically_relative(fs::absolute(dir));
    index << "  - path: "
          << yaml_text(rel.empty() || rel.native().rfind("..", 0) == 0 ? file : rel.string())
          << "\n    size_bytes: " << fs::file_size(file, ec) << "\n    processes:\n";
    for (const auto& p : reader->processes()) {
      index << "      - guid: " << yaml_text(p.guid) << "\n        pid: " << p.pid
            << "\n        hostname: " << yaml_text(p.hostname) << "\n";
      if (p.mpi_rank >= 0)
        index << "        mpi_rank: " << p.mpi_rank << "\n        mpi_size: " << p.mpi_size << "\n";
    }
    if (const auto span = reader->time_span())
      index << "    time_span_ns: [" << span->first << ", " << span->second << "]\n";
  }
  if (!index) throw usage_error("cannot write " + (dir / "index.yaml").string());
  out << "rocpd: indexed " << files.size() << " database(s) in " << (dir / "index.yaml").string()
      << "\n";
  return 0;
}

}  // namespace rocprof::rocpd_cli
