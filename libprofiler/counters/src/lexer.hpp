// Tokens of the counter expression language (see expression.hpp for the grammar).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rocprof::counters::detail {

enum class token_kind {
  end,
  number,
  name,
  plus,
  minus,
  star,
  slash,
  open_paren,
  close_paren,
  open_bracket,
  close_bracket,
  comma,
  equals,
  colon,
  invalid,  // text is the error message
};

struct token {
  token_kind kind = token_kind::end;
  size_t offset = 0;
  size_t length = 0;
  double number = 0;
  std::string_view text;  // the token's characters (a view into the expression)
  std::string message;    // invalid: what is wrong
};

class lexer {
 public:
  explicit lexer(std::string_view text) : text_(text) {}
  token next();
  // The token after the next one, without consuming anything.
  token peek();

 private:
  void skip_space_and_comments();
  token lex_number(size_t start);
  token lex_name(size_t start);

  std::string_view text_;
  size_t pos_ = 0;
};

// Printable form of a token kind, for "expected ..." messages.
const char* token_kind_text(token_kind kind);

}  // namespace rocprof::counters::detail
