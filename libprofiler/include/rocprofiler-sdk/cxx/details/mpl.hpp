// Type helpers of the C++ helper headers: which value types can hold a name.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

namespace rocprofiler::sdk::mpl {

/// How a name table stores names of type T. Specialised for std::string_view (the default:
/// names are static strings of the library), std::string and const char*.
template <typename T>
struct string_support : std::false_type {};

template <>
struct string_support<std::string_view> : std::true_type {
  using return_type = std::string_view;
  static constexpr std::string_view default_value() { return {}; }
  std::string_view operator()(const char* name) const { return std::string_view{name}; }
};

template <>
struct string_support<std::string> : std::true_type {
  using return_type = const std::string&;
  static std::string default_value() { return {}; }
  std::string operator()(const char* name) const { return std::string{name}; }
};

template <>
struct string_support<const char*> : std::true_type {
  using return_type = const char*;
  static constexpr const char* default_value() { return nullptr; }
  const char* operator()(const char* name) const { return name; }
};

template <typename T>
using unqualified_t = std::remove_cv_t<std::remove_reference_t<T>>;

/// True for the character-string types (std::string, std::string_view, char pointers and
/// arrays).
template <typename T>
struct is_string_type : std::bool_constant<std::is_same_v<unqualified_t<T>, std::string> ||
                                           std::is_same_v<unqualified_t<T>, std::string_view> ||
                                           std::is_same_v<std::decay_t<T>, const char*> ||
                                           std::is_same_v<std::decay_t<T>, char*>> {};

}  // namespace rocprofiler::sdk::mpl
