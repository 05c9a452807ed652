#include "convert.hpp"

#include "rocprof/config/values.hpp"

namespace rocprof::cli {
namespace {

using config::value_type;

std::string choice_value(const config::option_spec& spec, const std::string& word,
                         const std::string& where) {
  if (const auto choice = config::find_choice(spec, word)) return std::string(*choice);
  throw usage_error(where + ": invalid choice '" + word + "' (choose from " +
                    std::string(spec.choices) + ")");
}

uint64_t checked_range(const config::option_spec& spec, uint64_t value, const std::string& where) {
  if (auto problem = config::integer_range_problem(spec, value); !problem.empty()) {
    throw usage_error(where + ": " + problem);
  }
  return value;
}

uint64_t integer_value(const config::option_spec& spec, const std::string& word,
                       const std::string& where) {
  if (auto parsed = config::parse_integer(word)) return checked_range(spec, *parsed, where);
  throw usage_error(where + ": invalid integer value '" + word +
                    "' (a non-negative integer that fits in 64 bits)");
}

bool bool_value(const std::string& word, const std::string& where) {
  if (auto parsed = config::parse_bool_word(word)) return *parsed;
  throw usage_error(where + ": invalid boolean value '" + word +
                    "' (use one of y yes t true on 1 / n no f false off 0)");
}

std::string option_name(const config::option_spec& spec) {
  return "argument --" + std::string(spec.long_name);
}

std::string scalar_text(const nlohmann::json& node, const std::string& where) {
  if (node.is_string()) return node.get<std::string>();
  if (node.is_number_unsigned() || node.is_number_integer()) return node.dump();
  if (node.is_number_float()) return node.dump();
  if (node.is_boolean()) return node.get<bool>() ? "true" : "false";
  throw usage_error(where + ": expected a scalar value, got " + std::string(node.type_name()));
}

std::vector<std::string> list_text(const nlohmann::json& node, const std::string& where) {
  std::vector<std::string> out;
  if (!node.is_array()) {
    out.push_back(scalar_text(node, where));  // a single value is wrapped into a list
    return out;
  }
  for (const auto& item : node)
    out.push_back(scalar_text(item, where));
  return out;
}

}  // namespace

option_value from_words(const config::option_spec& spec, const std::vector<std::string>& words) {
  const std::string where = option_name(spec);
  switch (spec.type) {
    case value_type::boolean:
      return words.empty() ? true : bool_value(words.back(), where);
    case value_type::integer:
      if (words.empty()) throw usage_error(where + ": expected one argument");
      return integer_value(spec, words.back(), where);
    case value_type::string:
      if (words.empty()) throw usage_error(where + ": expected one argument");
      return words.back();
    case value_type::choice:
      if (words.empty()) throw usage_error(where + ": expected one argument");
      return choice_value(spec, words.back(), where);
    case value_type::choice_list: {
      std::vector<std::string> out;
      for (const auto& word : words)
        out.push_back(choice_value(spec, word, where));
      return out;
    }
    case value_type::string_list:
    case value_type::group_list:
      return words;
  }
  return words;
}

option_value from_json(const config::option_spec& spec, const nlohmann::json& node,
                       const std::string& where) {
  switch (spec.type) {
    case value_type::boolean:
      if (node.is_boolean()) return node.get<bool>();
      if (node.is_number_unsigned() || node.is_number_integer() || node.is_string()) {
        return bool_value(scalar_text(node, where), where);
      }
      throw usage_error(where + ": expected a boolean, got " + std::string(node.type_name()));
    case value_type::integer:
      if (node.is_number_unsigned()) return checked_range(spec, node.get<uint64_t>(), where);
      if (node.is_string()) return integer_value(spec, node.get<std::string>(), where);
      throw usage_error(where + ": expected a non-negative integer, got " +
                        (node.is_number() ? node.dump() : std::string(node.type_name())));
    case value_type::string:
      return scalar_text(node, where);
    case value_type::choice:
      return choice_value(spec, scalar_text(node, where), where);
    case value_type::choice_list: {
      std::vector<std::string> out;
      for (const auto& word : list_text(node, where))
        out.push_back(choice_value(spec, word, where));
      return out;
    }
    case value_type::string_list:
      return list_text(node, where);
    case value_type::group_list: {
      if (!node.is_array()) throw usage_error(where + ": expected a list of counter lists");
      std::vector<std::string> groups;
      for (const auto& group : node)
        groups.push_back(config::join(list_text(group, where), " "));
      return groups;
    }
  }
  throw usage_error(where + ": unsupported value");
}

}  // namespace rocprof::cli
