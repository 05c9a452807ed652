// A value or an error, for every fallible call of the counter library: parsing untrusted text
// (expressions, definition files) must report, never throw past the API.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <variant>

namespace rocprof::counters {

struct error {
  std::string message;
  // Where in the text the problem is (offset into an expression), or npos when it is not about
  // a position.
  size_t offset = std::string::npos;
};

template <typename T>
class result {
 public:
  result(T value) : state_(std::move(value)) {}          // NOLINT: implicit by design
  result(error failure) : state_(std::move(failure)) {}  // NOLINT: implicit by design

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // Only when ok().
  const T& value() const& { return std::get<0>(state_); }
  T& value() & { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  const T* operator->() const { return &std::get<0>(state_); }
  const T& operator*() const { return std::get<0>(state_); }

  // Only when !ok().
  const error& failure() const { return std::get<1>(state_); }

 private:
  std::variant<T, error> state_;
};

}  // namespace rocprof::counters
