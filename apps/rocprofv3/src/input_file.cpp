#include "input_file.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "convert.hpp"
#include "rocprof/config/schema.hpp"
#include "rocprof/config/values.hpp"

namespace rocprof::cli {
namespace {

using json = nlohmann::json;

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw usage_error(path + ": cannot read input file");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string extension_of(const std::string& path) {
  const size_t dot = path.find_last_of('.');
  const size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return config::to_lower(path.substr(dot + 1));
}

input_jobs read_txt(const std::string& path) {
  input_jobs out;
  out.sub_directory = "pmc_";
  std::istringstream lines(read_all(path));
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

// YAML scalars keep their YAML type (bool, integer, string), like PyYAML would give them.
json yaml_to_json(const YAML::Node& node, const std::string& path) {
  switch (node.Type()) {
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const auto& item : node)
        out.push_back(yaml_to_json(item, path));
      return out;
    }
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& item : node) {
        if (!item.first.IsScalar()) {
          throw usage_error(path + ":" + std::to_string(item.first.Mark().line + 1) +
                            ": a key must be a plain name");
        }
        out[item.first.Scalar()] = yaml_to_json(item.second, path);
      }
      return out;
    }
    case YAML::NodeType::Scalar: {
      const std::string text = node.Scalar();
      if (node.Tag() == "!") return text;  // quoted: always a string
      bool b = false;
      if (YAML::convert<bool>::decode(node, b)) return b;
      if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
        // Too large for 64 bits stays text; the schema then reports it as a bad integer.
        if (auto number = config::parse_integer(text)) return *number;
      }
      return text;
    }
    default:
      return nullptr;
  }
}

struct document {
  json root;
  std::vector<std::map<std::string, int>> key_lines;  // per job: key -> 1-based line
};

document parse_yaml(const std::string& path) {
  document doc;
  const std::string text = read_all(path);
  try {
    const YAML::Node root = YAML::Load(text);
    doc.root = yaml_to_json(root, path);
    if (root.IsMap() && root["jobs"] && root["jobs"].IsSequence()) {
      for (const auto& item : root["jobs"]) {
        std::map<std::string, int> lines;
        if (item.IsMap()) {
          for (const auto& entry : item)
            lines[entry.first.Scalar()] = entry.first.Mark().line + 1;
        }
        doc.key_lines.push_back(std::move(lines));
      }
    }
  } catch (const YAML::Exception& error) {
    throw usage_error(path + ":" + std::to_string(error.mark.line + 1) +
                      ": malformed YAML: " + error.msg);
  }
  return doc;
}

document parse_json(const std::string& path) {
  document doc;
  const std::string text = read_all(path);
  try {
    doc.root = json::parse(text);
  } catch (const json::parse_error& error) {
    // The parser reports a byte offset; turn it into a line number.
    const size_t offset = std::min<size_t>(error.byte, text.size());
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n');
    throw usage_error(path + ":" + std::to_string(line) + ": malformed JSON");
  }
  return doc;
}

bool allowed_in_file(const config::option_spec& spec) {
  return spec.scope == config::option_scope::cli_and_file ||
         spec.scope == config::option_scope::file_only;
}

}  // namespace

input_jobs read_input_file(const std::string& path) {
  const std::string ext = extension_of(path);
  if (ext == "txt") return read_txt(path);
  document doc;
  if (ext == "yaml" || ext == "yml") {
    doc = parse_yaml(path);
  } else if (ext == "json") {
    doc = parse_json(path);
  } else {
    throw usage_error(path + ": unknown input file type '." + ext +
                      "' (expected .txt, .yaml, .yml or .json)");
  }
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
