#include "lexer.hpp"

#include <charconv>

namespace rocprof::counters::detail {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_name_char(char c) {
  return is_name_start(c) || is_digit(c);
}

token simple(token_kind kind, size_t offset, std::string_view text) {
  token t;
  t.kind = kind;
  t.offset = offset;
  t.length = 1;
  t.text = text.substr(offset, 1);
  return t;
}

token invalid(size_t offset, std::string message) {
  token t;
  t.kind = token_kind::invalid;
  t.offset = offset;
  t.length = 1;
  t.message = std::move(message);
  return t;
}

}  // namespace

const char* token_kind_text(token_kind kind) {
  switch (kind) {
    case token_kind::end:
      return "end of expression";
    case token_kind::number:
      return "a number";
    case token_kind::name:
      return "a name";
    case token_kind::plus:
      return "'+'";
    case token_kind::minus:
      return "'-'";
    case token_kind::star:
      return "'*'";
    case token_kind::slash:
      return "'/'";
    case token_kind::open_paren:
      return "'('";
    case token_kind::close_paren:
      return "')'";
    case token_kind::open_bracket:
      return "'['";
    case token_kind::close_bracket:
      return "']'";
    case token_kind::comma:
      return "','";
    case token_kind::equals:
      return "'='";
    case token_kind::colon:
      return "':'";
    case token_kind::invalid:
      return "an invalid character";
  }
  return "?";
}

void lexer::skip_space_and_comments() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n')
        ++pos_;
    } else {
      return;
    }
  }
}

token lexer::peek() {
  const size_t saved = pos_;
  token t = next();
  pos_ = saved;
  return t;
}

token lexer::next() {
  skip_space_and_comments();
  if (pos_ >= text_.size()) {
    token t;
    t.offset = text_.size();
    return t;
  }
  const size_t start = pos_;
  const char c = text_[pos_];
  if (is_digit(c) || (c == '.' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1])))
    return lex_number(start);
  if (is_name_start(c)) return lex_name(start);
  ++pos_;
  switch (c) {
    case '+':
      return simple(token_kind::plus, start, text_);
    case '-':
      return simple(token_kind::minus, start, text_);
    case '*':
      return simple(token_kind::star, start, text_);
    case '/':
      return simple(token_kind::slash, start, text_);
    case '(':
      return simple(token_kind::open_paren, start, text_);
    case ')':
      return simple(token_kind::close_paren, start, text_);
    case '[':
      return simple(token_kind::open_bracket, start, text_);
    case ']':
      return simple(token_kind::close_bracket, start, text_);
    case ',':
      return simple(token_kind::comma, start, text_);
    case '=':
      return simple(token_kind::equals, start, text_);
    case ':':
      return simple(token_kind::colon, start, text_);
    default:
      break;
  }
  const auto byte = static_cast<unsigned char>(c);
  if (byte < 0x20 || byte >= 0x7f)
    return invalid(start, "unexpected byte 0x" + std::string(1, "0123456789abcdef"[byte >> 4]) +
                              std::string(1, "0123456789abcdef"[byte & 15]));
  return invalid(start, std::string("unexpected character '") + c + "'");
}

token lexer::lex_number(size_t start) {
  while (pos_ < text_.size() && is_digit(text_[pos_]))
    ++pos_;
  if (pos_ < text_.size() && text_[pos_] == '.') {
    ++pos_;
    while (pos_ < text_.size() && is_digit(text_[pos_]))
      ++pos_;
  }
  if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    size_t p = pos_ + 1;
    if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
    if (p < text_.size() && is_digit(text_[p])) {
      while (p < text_.size() && is_digit(text_[p]))
        ++p;
      pos_ = p;
    }
  }
  if (pos_ < text_.size() && is_name_char(text_[pos_]))
    return invalid(pos_, "a number runs into a name here (names cannot start with a digit)");
  token t;
  t.kind = token_kind::number;
  t.offset = start;
  t.length = pos_ - start;
  t.text = text_.substr(start, t.length);
  // from_chars does not depend on the locale (strtod would read "1,5" in some).
  const auto parsed = std::from_chars(t.text.data(), t.text.data() + t.text.size(), t.number);
  if (parsed.ec != std::errc() || parsed.ptr != t.text.data() + t.text.size())
    return invalid(start, "number out of range");
  return t;
}

token lexer::lex_name(size_t start) {
  while (pos_ < text_.size()) {
    if (is_name_char(text_[pos_])) {
      ++pos_;
    } else if (text_[pos_] == '.' && pos_ + 1 < text_.size() && is_name_char(text_[pos_ + 1])) {
      // NVIDIA metric names: roll-up and sub-metric after dots (dram__bytes_read.sum.per_second).
      ++pos_;
    } else {
      break;
    }
  }
  token t;
  t.kind = token_kind::name;
  t.offset = start;
  t.length = pos_ - start;
  t.text = text_.substr(start, t.length);
  return t;
}

}  // namespace rocprof::counters::detail
