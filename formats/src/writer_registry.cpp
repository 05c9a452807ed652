#include "rocprof/trace/writer_registry.hpp"

#include <algorithm>
#include <cctype>
#include <functional>

#include "csv/csv_writer.hpp"
#include "hotspots/pc_hotspots.hpp"
#include "json/json_writer.hpp"
#include "otf2/otf2_writer.hpp"
#include "perfetto/perfetto_writer.hpp"
#include "rocpd/rocpd_writer.hpp"
#include "summary/summary_writer.hpp"

namespace rocprof::trace {
namespace {

using factory = std::unique_ptr<writer> (*)(const output_options&);

struct entry {
  std::string_view name;
  factory make;
};

const entry entries[] = {
    {"rocpd", formats::rocpd::make_rocpd_writer},
    {"csv", formats::csv::make_csv_writer},
    {"json", formats::json::make_json_writer},
    {"pftrace", static_cast<factory>(make_perfetto_writer)},
    {"otf2", static_cast<factory>(make_otf2_writer)},
    {"summary", formats::summary::make_summary_writer},
    {"config", formats::json::make_config_writer},
    {"pc_hotspots", formats::hotspots::make_pc_hotspots_writer},
};

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::unique_ptr<writer> make_writer(std::string_view name, const output_options& options,
                                    std::string* error) {
  for (const auto& e : entries)
    if (iequals(e.name, name)) return e.make(options);
  if (error) {
    std::string known;
    for (const auto& e : entries)
      known += (known.empty() ? "" : ", ") + std::string{e.name};
    *error = "unknown output format '" + std::string{name} + "' (known: " + known + ")";
  }
  return nullptr;
}

std::vector<std::string> writer_names() {
  std::vector<std::string> names;
  for (const auto& e : entries)
    names.emplace_back(e.name);
  return names;
}

}  // namespace rocprof::trace
