#include "rocprof/formats/symbol_names.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace rocprof::formats {

std::string demangle_symbol(std::string_view mangled) {
  if (mangled.size() < 2 || mangled[0] != '_' || mangled[1] != 'Z') return std::string{mangled};
  const std::string name{mangled};
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text{
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free};
  return status == 0 && text ? std::string{text.get()} : name;
}

namespace {

// Index of the bracket that opens the group closing at `close` (s[close] is `closer`), scanning
// backwards and skipping nested groups; npos when unbalanced.
size_t matching_open(std::string_view s, size_t close, char opener, char closer) {
  int depth = 0;
  for (size_t i = close + 1; i-- > 0;) {
    if (s[i] == closer) ++depth;
    if (s[i] == opener && --depth == 0) return i;
  }
  return std::string_view::npos;
}

}  // namespace

std::string truncate_symbol(std::string_view name) {
  std::string_view s = name;
  // Trailing qualifiers of member functions (" const", " volatile") come after the parameters.
  for (std::string_view q : {std::string_view{" const"}, std::string_view{" volatile"}})
    if (s.size() > q.size() && s.substr(s.size() - q.size()) == q) s.remove_suffix(q.size());
  if (!s.empty() && s.back() == ')') {
    const size_t open = matching_open(s, s.size() - 1, '(', ')');
    if (open != std::string_view::npos && open > 0) s = s.substr(0, open);
  }
  if (!s.empty() && s.back() == '>') {
    const size_t open = matching_open(s, s.size() - 1, '<', '>');
    if (open != std::string_view::npos && open > 0) s = s.substr(0, open);
  }
  // What remains is "[return type ]qualified::name": keep what follows the last space or "::"
  // outside any brackets.
  int depth = 0;
  for (size_t i = s.size(); i-- > 0;) {
    const char c = s[i];
    if (c == ')' || c == '>' || c == ']') ++depth;
    if (c == '(' || c == '<' || c == '[') --depth;
    if (depth != 0) continue;
    if (c == ' ' || (c == ':' && i > 0 && s[i - 1] == ':')) {
      s = s.substr(i + 1);
      break;
    }
  }
  return s.empty() ? std::string{name} : std::string{s};
}

void format_symbol_names(trace::kernel_symbol_info& symbol, bool demangle, bool truncate) {
  symbol.demangled_name = demangle_symbol(symbol.mangled_name);
  symbol.truncated_name = truncate_symbol(symbol.demangled_name);
  if (!demangle)
    symbol.display_name = symbol.mangled_name;
  else if (truncate)
    symbol.display_name = symbol.truncated_name;
  else
    symbol.display_name = symbol.demangled_name;
}

}  // namespace rocprof::formats
