#include "sass_listing.hpp"

#include <cctype>

namespace rocprof::cuda {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0)
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0)
    s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// `.section .text.<name>,"ax",@progbits` -> <name>; "" for any other line.
std::string_view text_section_name(std::string_view line) {
  constexpr std::string_view directive = ".section";
  if (!starts_with(line, directive)) return {};
  std::string_view rest = trim(line.substr(directive.size()));
  constexpr std::string_view text = ".text.";
  if (!starts_with(rest, text)) return {};
  rest.remove_prefix(text.size());
  return rest.substr(0, rest.find(','));
}

}  // namespace

bool parse_sass_line(std::string_view line, uint64_t& offset, std::string& text) {
  line = trim(line);
  if (!starts_with(line, "/*")) return false;
  const size_t close = line.find("*/");
  if (close == std::string_view::npos || close == 2) return false;
  uint64_t value = 0;
  for (const char c : line.substr(2, close - 2)) {
    const int digit = std::isdigit(static_cast<unsigned char>(c)) != 0 ? c - '0'
                      : (c >= 'a' && c <= 'f')                         ? c - 'a' + 10
                      : (c >= 'A' && c <= 'F')                         ? c - 'A' + 10
                                                                       : -1;
    if (digit < 0) return false;  // an encoding comment (`/* 0x... */`) or other text
    value = value * 16 + static_cast<uint64_t>(digit);
  }
  std::string_view body = trim(line.substr(close + 2));
  // Older architectures group dual-issued instructions in braces: `{ IADD ... ;`.
  if (starts_with(body, "{")) body = trim(body.substr(1));
  // The instruction ends at its `;`; what follows (an encoding comment, `}`) is not part of it.
  const size_t end = body.find(';');
  if (end != std::string_view::npos) body = trim(body.substr(0, end));
  if (body.empty()) return false;
  offset = value;
  text.assign(body.data(), body.size());
  return true;
}

sass_listing parse_nvdisasm(std::string_view text) {
  sass_listing listing;
  sass_function* current = nullptr;
  while (!text.empty()) {
    const size_t eol = text.find('\n');
    const std::string_view line = trim(text.substr(0, eol));
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    const std::string_view section = text_section_name(line);
    if (!section.empty()) {
      current = &listing[std::string(section)];
      continue;
    }
    // Another section (.nv.info, .nv.constant...) or a banner (`//---- SYMBOLS ----`) ends the
    // function's code.
    if (starts_with(line, ".section") || starts_with(line, "//-")) {
      current = nullptr;
      continue;
    }
    uint64_t offset = 0;
    std::string instruction;
    if (current != nullptr && parse_sass_line(line, offset, instruction))
      (*current)[offset] = std::move(instruction);
  }
  return listing;
}

}  // namespace rocprof::cuda
