// Reading counter definitions from YAML (rocprofv3's counters-schema-version 1). yaml-cpp builds
// the node tree (it bounds its own nesting depth); this file checks the schema and collects every
// problem with its position instead of stopping at the first, so one run of the CLI reports
// everything wrong in an -E file.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <sstream>

#include "rocprof/counters/definitions.hpp"

namespace rocprof::counters {
namespace {

class loader {
 public:
  loader(std::string_view text, const std::string& file, load_result& out)
      : text_(text), file_(file), out_(out) {}

  void load(const YAML::Node& root) {
    if (!root.IsMap()) return error_at(root, "expected a mapping with the key 'rocprofiler-sdk'");
    check_keys(root, {"rocprofiler-sdk"}, "the top level");
    const YAML::Node sdk = root["rocprofiler-sdk"];
    if (!sdk) return error_at(root, "missing the key 'rocprofiler-sdk'");
    if (!sdk.IsMap()) return error_at(sdk, "'rocprofiler-sdk' must be a mapping");
    check_keys(sdk, {"counters-schema-version", "counters"}, "'rocprofiler-sdk'");
    check_version(sdk);
    const YAML::Node list = sdk["counters"];
    if (!list) return error_at(sdk, "missing the key 'counters' (a list of counters)");
    if (list.IsNull()) return;  // "counters:" with nothing: no counters
    if (!list.IsSequence()) return error_at(list, "'counters' must be a list");
    for (const auto& counter : list)
      load_counter(counter);
  }

 private:
  source_location where(const YAML::Node& node) const {
    source_location loc;
    loc.file = file_;
    const YAML::Mark mark = node.Mark();
    if (!mark.is_null()) {
      loc.line = static_cast<size_t>(mark.line) + 1;
      loc.column = static_cast<size_t>(mark.column) + 1;
    }
    return loc;
  }

  void error_at(const YAML::Node& node, const std::string& message) {
    out_.errors.push_back(location_text(where(node)) + ": " + message);
  }

  void warn_at(const YAML::Node& node, const std::string& message) {
    out_.warnings.push_back(location_text(where(node)) + ": " + message);
  }

  // Unknown keys are warnings (a newer schema may add keys); a repeated key is an error (YAML
  // forbids it and yaml-cpp would silently use the first).
  void check_keys(const YAML::Node& map, std::initializer_list<std::string_view> known,
                  const std::string& context) {
    std::vector<std::string> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      const std::string key = it->first.IsScalar() ? it->first.Scalar() : std::string("?");
      if (std::find(seen.begin(), seen.end(), key) != seen.end())
        error_at(it->first, "key '" + key + "' repeated in " + context);
      seen.push_back(key);
      if (std::find(known.begin(), known.end(), key) == known.end())
        warn_at(it->first, "unknown key '" + key + "' in " + context + " (ignored)");
    }
  }

  void check_version(const YAML::Node& sdk) {
    const YAML::Node version = sdk["counters-schema-version"];
    if (!version) {
      warn_at(sdk, "no 'counters-schema-version'; reading it as version " +
                       std::to_string(counters_schema_version));
      return;
    }
    if (!version.IsScalar() || version.Scalar() != std::to_string(counters_schema_version))
      error_at(version, "unsupported counters-schema-version '" +
                            (version.IsScalar() ? version.Scalar() : std::string("?")) +
                            "' (this build reads version " +
                            std::to_string(counters_schema_version) + ")");
  }

  // A scalar as text; false (with an error) when the node is something else.
  bool text_of(const YAML::Node& node, const std::string& what, std::string& out) {
    if (!node.IsScalar()) {
      error_at(node, what + " must be a single value");
      return false;
    }
    out = node.Scalar();
    return true;
  }

  void load_counter(const YAML::Node& node) {
    if (!node.IsMap())
      return error_at(node, "a counter must be a mapping (name, definitions, ...)");
    check_keys(node, {"name", "description", "properties", "definitions"}, "a counter");
    counter_entry entry;
    entry.location = where(node);
    const YAML::Node name = node["name"];
    if (!name) return error_at(node, "a counter without 'name'");
    if (!text_of(name, "'name'", entry.name)) return;
    if (!is_valid_counter_name(entry.name))
      return error_at(name, "'" + entry.name +
                                "' is not a usable counter name (letters, digits, '_', and '.' "
                                "between parts; not starting with a digit)");
    const std::string context = "counter '" + entry.name + "'";
    if (const YAML::Node d = node["description"]; d && !d.IsNull())
      text_of(d, context + ": 'description'", entry.description);
    if (const YAML::Node props = node["properties"]; props && !props.IsNull()) {
      if (!props.IsSequence()) {
        error_at(props, context + ": 'properties' must be a list");
      } else {
        for (const auto& p : props) {
          std::string value;
          if (text_of(p, context + ": a property", value)) entry.properties.push_back(value);
        }
      }
    }
    const YAML::Node defs = node["definitions"];
    if (!defs || !defs.IsSequence() || defs.size() == 0)
      return error_at(defs ? defs : node, context + ": 'definitions' must be a non-empty list");
    for (const auto& def : defs)
      load_definition(def, entry);

    if (const auto* first = out_.definitions.find(entry.name))
      return error_at(name,
                      context + " defined twice (first at " + location_text(first->location) + ")");
    out_.definitions.add(std::move(entry));
  }

  void load_definition(const YAML::Node& node, counter_entry& entry) {
    const std::string context = "counter '" + entry.name + "'";
    if (!node.IsMap()) return error_at(node, context + ": a definition must be a mapping");
    check_keys(node, {"architectures", "expression", "block", "event", "description"},
               context + "'s definition");
    counter_definition def;
    def.location = where(node);
    const YAML::Node archs = node["architectures"];
    if (!archs || !archs.IsSequence() || archs.size() == 0)
      return error_at(archs ? archs : node,
                      context + ": 'architectures' must be a non-empty list (e.g. [sm_90])");
    for (const auto& arch : archs) {
      std::string value;
      if (!text_of(arch, context + ": an architecture", value)) continue;
      if (entry.for_architecture(value) != nullptr ||
          std::find(def.architectures.begin(), def.architectures.end(), value) !=
              def.architectures.end()) {
        error_at(arch, context + ": architecture " + value + " has two definitions");
        continue;
      }
      def.architectures.push_back(value);
    }
    const YAML::Node expr = node["expression"];
    const YAML::Node block = node["block"];
    const YAML::Node event = node["event"];
    if (const YAML::Node d = node["description"]; d && !d.IsNull())
      text_of(d, context + ": 'description'", def.description);
    if (expr && (block || event))
      return error_at(node, context +
                                ": a definition has either 'expression' or 'block' and "
                                "'event', not both");
    if (!expr && !(block && event))
      return error_at(node, context +
                                ": a definition needs 'expression' (derived counter) or "
                                "'block' and 'event' (hardware counter)");
    if (block) {
      if (!text_of(block, context + ": 'block'", def.block)) return;
      if (!text_of(event, context + ": 'event'", def.event)) return;
    } else {
      if (!text_of(expr, context + ": 'expression'", def.expression)) return;
      if (!parse_expression_of(expr, entry.name, def)) return;
    }
    entry.definitions.push_back(std::move(def));
  }

  // Parses the expression and notes whether the file shows it verbatim (one line, plain or
  // quoted), so that offsets in it map to exact columns.
  bool parse_expression_of(const YAML::Node& node, const std::string& counter,
                           counter_definition& def) {
    def.expression_location = where(node);
    const YAML::Mark mark = node.Mark();
    if (!mark.is_null() && static_cast<size_t>(mark.pos) < text_.size()) {
      const auto pos = static_cast<size_t>(mark.pos);
      const size_t quote = (text_[pos] == '\'' || text_[pos] == '"') ? 1 : 0;
      def.expression_verbatim = def.expression.find('\n') == std::string::npos &&
                                text_.substr(pos + quote, def.expression.size()) == def.expression;
      if (def.expression_verbatim) def.expression_location.column += quote;
    }
    auto parsed = parse_expression(def.expression);
    if (!parsed) {
      out_.errors.push_back(expression_problem(
          def, counter,
          error{"expression error at offset " + std::to_string(parsed.failure().offset) + ": " +
                    parsed.failure().message,
                parsed.failure().offset}));
      return false;
    }
    def.parsed = std::make_shared<const expression>(std::move(parsed).value());
    return true;
  }

  std::string_view text_;
  const std::string& file_;
  load_result& out_;
};

}  // namespace

load_result parse_definitions(std::string_view yaml_text, const std::string& file_name) {
  load_result out;
  try {
    const YAML::Node root = YAML::Load(std::string(yaml_text));
    loader(yaml_text, file_name, out).load(root);
  } catch (const YAML::Exception& e) {
    source_location at{file_name, 0, 0};
    if (!e.mark.is_null()) {
      at.line = static_cast<size_t>(e.mark.line) + 1;
      at.column = static_cast<size_t>(e.mark.column) + 1;
    }
    out.errors.push_back(location_text(at) + ": YAML error: " + e.msg);
  } catch (const std::exception& e) {
    out.errors.push_back(file_name + ": " + e.what());
  }
  if (!out.ok()) out.definitions = definition_set{};
  return out;
}

load_result load_definitions_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    load_result out;
    out.errors.push_back(path + ": cannot be read");
    return out;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_definitions(text.str(), path);
}

}  // namespace rocprof::counters
