#include "yaml_reader.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "job.hpp"
#include "rocprof/config/values.hpp"

namespace rocprof::cli {
namespace {

using json = nlohmann::json;

// A finished value with what an alias to it would cost.
struct item {
  json value;
  size_t values = 1;  // nodes in it
  size_t bytes = 0;   // scalar text in it
  size_t height = 0;  // nesting levels in it (a scalar: 0)
  bool scalar = false;
  std::string text;  // a scalar's text, for keys
};

json scalar_value(const std::string& tag, const std::string& text) {
  if (tag == "!") return text;  // quoted: always a string
  bool b = false;
  if (YAML::convert<bool>::decode(YAML::Node(text), b)) return b;
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
    // Too large for 64 bits stays text; the schema then reports it as a bad integer.
    if (auto number = config::parse_integer(text)) return *number;
  }
  return text;
}

class json_builder : public YAML::EventHandler {
 public:
  explicit json_builder(const std::string& path) : path_(path) {}

  yaml_document take() { return std::move(doc_); }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    item null;
    null.value = nullptr;
    finish(std::move(null), mark, anchor);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    item scalar;
    scalar.value = scalar_value(tag, value);
    scalar.bytes = value.size();
    scalar.scalar = true;
    scalar.text = value;
    finish(std::move(scalar), mark, anchor);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    const auto found = anchors_.find(anchor);
    if (found == anchors_.end()) fail(mark, "alias to an unknown anchor");
    if (!found->second) fail(mark, "alias refers to a node that contains it (recursive alias)");
    const item& target = *found->second;
    alias_values_ += target.values;
    alias_bytes_ += target.bytes;
    if (alias_values_ > k_yaml_max_alias_values || alias_bytes_ > k_yaml_max_alias_bytes) {
      fail(mark, "aliases expand to more than " + std::to_string(k_yaml_max_alias_values) +
                     " values or " + std::to_string(k_yaml_max_alias_bytes >> 20) +
                     " MiB of text (an alias bomb?)");
    }
    if (open_.size() + target.height > k_input_max_depth) fail(mark, too_deep());
    finish(item(target), mark, YAML::NullAnchor);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(json::array(), mark, anchor);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(json::object(), mark, anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  struct frame {
    item built;
    YAML::anchor_t anchor = YAML::NullAnchor;
    YAML::Mark mark;       // where it starts, for messages
    bool has_key = false;  // a mapping waiting for the value of `key`
    std::string key;
  };

  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& what) const {
    throw usage_error(path_ + ":" + std::to_string(mark.line + 1) + ": " + what);
  }

  static std::string too_deep() {
    return "nested deeper than " + std::to_string(k_input_max_depth) + " levels";
  }

  void open(json container, const YAML::Mark& mark, YAML::anchor_t anchor) {
    if (open_.size() + 1 > k_input_max_depth) fail(mark, too_deep());
    frame f;
    f.built.value = std::move(container);
    f.built.height = 1;
    f.anchor = anchor;
    f.mark = mark;
    if (anchor != YAML::NullAnchor) anchors_[anchor].reset();  // known, not complete yet
    open_.push_back(std::move(f));
  }

  void close() {
    frame f = std::move(open_.back());
    open_.pop_back();
    finish(std::move(f.built), f.mark, f.anchor);
  }

  // A completed value: kept for aliases when anchored, then placed in its parent.
  void finish(item done, const YAML::Mark& mark, YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor) anchors_[anchor] = done;
    if (open_.empty()) {
      doc_.root = std::move(done.value);
      return;
    }
    frame& parent = open_.back();
    parent.built.values += done.values;
    parent.built.bytes += done.bytes;
    parent.built.height = std::max(parent.built.height, done.height + 1);
    if (parent.built.value.is_array()) {
      parent.built.value.push_back(std::move(done.value));
    } else if (!parent.has_key) {
      if (!done.scalar) fail(mark, "a key must be a plain name");
      parent.has_key = true;
      parent.key = std::move(done.text);
      note_job_key(parent.key, mark);
    } else {
      parent.built.value[parent.key] = std::move(done.value);
      parent.has_key = false;
    }
  }

  // Keys of the mappings in the top-level `jobs` list: root mapping > jobs > job > key.
  void note_job_key(const std::string& key, const YAML::Mark& mark) {
    if (open_.size() != 3 || !open_[0].has_key || open_[0].key != "jobs" ||
        !open_[1].built.value.is_array() || mark.line < 0) {
      return;
    }
    const size_t index = open_[1].built.value.size();
    if (doc_.job_key_lines.size() <= index) doc_.job_key_lines.resize(index + 1);
    doc_.job_key_lines[index][key] = mark.line + 1;
  }

  const std::string& path_;
  yaml_document doc_;
  std::vector<frame> open_;
  std::unordered_map<YAML::anchor_t, std::optional<item>> anchors_;
  size_t alias_values_ = 0;
  size_t alias_bytes_ = 0;
};

}  // namespace

yaml_document read_yaml_text(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  json_builder builder(path);
  try {
    YAML::Parser parser(in);
    parser.HandleNextDocument(builder);
  } catch (const YAML::Exception& error) {
    throw usage_error(path + ":" + std::to_string(error.mark.line + 1) +
                      ": malformed YAML: " + error.msg);
  }
  return builder.take();
}

}  // namespace rocprof::cli
