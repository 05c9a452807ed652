#include "input_file.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "convert.hpp"
#include "rocprof/config/schema.hpp"
#include "rocprof/config/values.hpp"
#include "yaml_reader.hpp"

namespace rocprof::cli {
namespace {

using json = nlohmann::json;

// Input files are a few kilobytes; the limit stops a misnamed device or a runaway file.
constexpr std::streamsize k_max_input_bytes = std::streamsize{64} << 20;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw usage_error(path + ": cannot read input file");
  std::string text;
  char chunk[65536];
  while (in.read(chunk, sizeof(chunk)) || in.gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
    if (static_cast<std::streamsize>(text.size()) > k_max_input_bytes) {
      throw usage_error(path + ": input file larger than " +
                        std::to_string(k_max_input_bytes >> 20) + " MiB");
    }
  }
  return text;
}

std::string extension_of(const std::string& path) {
  const size_t dot = path.find_last_of('.');
  const size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return config::to_lower(path.substr(dot + 1));
}

input_jobs read_txt(const std::string& path, const std::string& text) {
  input_jobs out;
  out.sub_directory = "pmc_";
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const std::string content = line.substr(0, line.find('#'));
    if (content.find("pmc:") == std::string::npos) continue;
    const auto counters = config::parse_pmc_line(content);
    if (counters.empty()) {
      throw usage_error(path + ":" + std::to_string(number) + ": 'pmc:' line lists no counters");
    }
    job pass;
    pass.values["pmc"] = counters;
    pass.where["pmc"] = path + ":" + std::to_string(number);
    out.jobs.push_back(std::move(pass));
  }
  if (out.jobs.empty()) throw usage_error(path + ": no 'pmc:' line found");
  return out;
}

struct document {
  json root;
  std::vector<std::map<std::string, int>> key_lines;  // per job: key -> 1-based line
};

document parse_yaml(const std::string& path, const std::string& text) {
  yaml_document yaml = read_yaml_text(text, path);
  return {std::move(yaml.root), std::move(yaml.job_key_lines)};
}

// nlohmann's parser nests without limit; the jobs schema needs four levels.
void check_json_depth(const std::string& path, const std::string& text) {
  size_t depth = 0;
  int line = 1;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (in_string) {
      if (c == '\\' && i + 1 < text.size() && text[i + 1] != '\n') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > k_input_max_depth) {
        throw usage_error(path + ":" + std::to_string(line) + ": nested deeper than " +
                          std::to_string(k_input_max_depth) + " levels");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

document parse_json(const std::string& path, const std::string& text) {
  check_json_depth(path, text);
  document doc;
  try {
    doc.root = json::parse(text);
  } catch (const json::parse_error& error) {
    // The parser reports a byte offset; turn it into a line number.
    const size_t offset = std::min<size_t>(error.byte, text.size());
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n');
    throw usage_error(path + ":" + std::to_string(line) + ": malformed JSON");
  } catch (const json::exception& error) {
    // e.g. a number too large for a double (out_of_range.406): no offset to report.
    throw usage_error(path + ": malformed JSON: " + error.what());
  }
  return doc;
}

bool allowed_in_file(const config::option_spec& spec) {
  return spec.scope == config::option_scope::cli_and_file ||
         spec.scope == config::option_scope::file_only;
}

}  // namespace

input_jobs read_input_file(const std::string& path) {
  check_input_type(path);
  return parse_input_text(path, read_all(path));
}

void check_input_type(const std::string& path) {
  const std::string ext = extension_of(path);
  if (ext != "txt" && ext != "yaml" && ext != "yml" && ext != "json") {
    throw usage_error(path + ": unknown input file type '." + ext +
                      "' (expected .txt, .yaml, .yml or .json)");
  }
}

input_jobs parse_input_text(const std::string& path, const std::string& text) {
  check_input_type(path);
  const std::string ext = extension_of(path);
  if (ext == "txt") return read_txt(path, text);
  document doc = ext == "json" ? parse_json(path, text) : parse_yaml(path, text);
  if (!doc.root.is_object() || !doc.root.contains("jobs")) {
    throw usage_error(path + ": missing top-level key 'jobs'");
  }
  for (const auto& item : doc.root.items()) {
    if (item.key() != "jobs")
      throw usage_error(path + ": unknown top-level key '" + item.key() + "'");
  }
  const json& jobs = doc.root["jobs"];
  if (!jobs.is_array() || jobs.empty()) {
    throw usage_error(path + ": key 'jobs': expected a non-empty list of jobs");
  }
  input_jobs out;
  out.sub_directory = "pass_";
  for (size_t index = 0; index < jobs.size(); ++index) {
    const json& entry = jobs[index];
    const std::string job_name = path + ": jobs[" + std::to_string(index) + "]";
    if (!entry.is_object()) throw usage_error(job_name + ": expected a mapping of job keys");
    job pass;
    for (const auto& item : entry.items()) {
      std::string where = path;
      if (index < doc.key_lines.size() && doc.key_lines[index].count(item.key())) {
        where += ":" + std::to_string(doc.key_lines[index].at(item.key()));
      }
      where += ": jobs[" + std::to_string(index) + "]: key '" + item.key() + "'";
      const auto* spec = config::find_option(item.key());
      if (spec == nullptr || !allowed_in_file(*spec)) throw usage_error(where + ": unknown key");
      if (item.value().is_null()) continue;  // "key:" with no value leaves it unset
      pass.values[item.key()] = from_json(*spec, item.value(), where);
      pass.where[item.key()] = where;
    }
    out.jobs.push_back(std::move(pass));
  }
  return out;
}

}  // namespace rocprof::cli
