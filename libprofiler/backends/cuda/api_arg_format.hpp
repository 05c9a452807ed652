// How one CUDA API argument reads as text, chosen from its C type at compile time (the
// generated tables instantiate format_arg<T> per member type):
//   integers and enums      decimal (enums by their value)
//   floating point          %g
//   const char*             the string (when a dereference is allowed), else the address
//   T* of a number, enum or pointer: the pointed-to value when a dereference is allowed
//                           ("0x7ffe...->42"), else the address; other pointers: the address
//   dim3                    {x, y, z}
//   other structs, unions, arrays: {...}
// Only what the type says is host memory is followed: void* (device memory in CUDA's API) and
// pointers to structs are never dereferenced.
#pragma once

#include <vector_types.h>

#include <charconv>
#include <cinttypes>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

namespace rocprof::cuda {

template <typename T>
constexpr int32_t indirection_of() {
  if constexpr (std::is_pointer_v<T>)
    return 1 + indirection_of<std::remove_cv_t<std::remove_pointer_t<T>>>();
  else
    return 0;
}

namespace arg_format_detail {

// Longest C string shown for a const char* argument.
constexpr size_t max_string = 255;

template <typename T>
using bare_t = std::remove_cv_t<T>;

// Whether a pointer to T may be followed: T is a number, an enum or another pointer (whose own
// target is judged when it is reached).
template <typename T>
constexpr bool followable() {
  using U = bare_t<T>;
  return std::is_arithmetic_v<U> || std::is_enum_v<U> || std::is_pointer_v<U>;
}

inline size_t put(char* out, size_t size, const char* text) {
  const size_t n = std::strlen(text);
  const size_t k = n < size ? n : size - 1;
  std::memcpy(out, text, k);
  out[k] = '\0';
  return k;
}

// Numbers and addresses as printf's %PRIu64, %PRId64, %u and %p write them, without printf:
// the tool formats every argument of every traced call on its delivery thread, where
// snprintf's format parsing was half of the cost of a call's argument text.
class short_text {
 public:
  void add(const char* s) {
    while (*s != '\0')
      data_[length_++] = *s++;
  }
  template <typename N>
  void add_number(N value) {
    length_ = static_cast<size_t>(std::to_chars(data_ + length_, data_ + sizeof(data_), value).ptr -
                                  data_);
  }
  void add_address(uintptr_t address) {
    if (address == 0) return add("(nil)");  // glibc's %p of a null pointer
    add("0x");
    length_ = static_cast<size_t>(
        std::to_chars(data_ + length_, data_ + sizeof(data_), address, 16).ptr - data_);
  }
  // Copied as snprintf would: truncated to size - 1 bytes and terminated.
  void copy_to(char* out, size_t size) const {
    const size_t k = length_ < size ? length_ : size - 1;
    std::memcpy(out, data_, k);
    out[k] = '\0';
  }

 private:
  char data_[64];  // the longest text: a dim3 of three 10-digit numbers (38 bytes)
  size_t length_ = 0;
};

template <typename T>
int32_t format(const T& v, int32_t max_deref, char* out, size_t size);

template <typename T>
int32_t format_pointer(const T& p, int32_t max_deref, char* out, size_t size) {
  using target = std::remove_pointer_t<T>;
  uintptr_t address = 0;  // copied: T may be a function pointer
  std::memcpy(&address, &p, sizeof(address));
  const void* raw = reinterpret_cast<const void*>(address);
  static_assert(sizeof(T) == sizeof(uintptr_t), "pointers are one word");
  if constexpr (std::is_same_v<bare_t<target>, char> && std::is_const_v<target>) {
    if (p != nullptr && max_deref > 0) {
      const size_t n = strnlen(p, max_string);
      const size_t k = n < size ? n : size - 1;
      std::memcpy(out, p, k);
      out[k] = '\0';
      return 1;
    }
  } else if constexpr (followable<target>()) {
    if (p != nullptr && max_deref > 0) {
      const int written = std::snprintf(out, size, "%p->", raw);
      if (written < 0 || static_cast<size_t>(written) >= size) return 0;
      return 1 + format(*p, max_deref - 1, out + written, size - static_cast<size_t>(written));
    }
  }
  short_text text;
  text.add_address(address);
  text.copy_to(out, size);
  return 0;
}

template <typename T>
int32_t format(const T& v, int32_t max_deref, char* out, size_t size) {
  using U = bare_t<T>;
  if constexpr (std::is_pointer_v<U>) {
    return format_pointer(v, max_deref, out, size);
  } else if constexpr (std::is_same_v<U, bool>) {
    put(out, size, v ? "true" : "false");
  } else if constexpr (std::is_enum_v<U>) {
    using base = std::underlying_type_t<U>;
    return format(static_cast<base>(v), max_deref, out, size);
  } else if constexpr (std::is_integral_v<U>) {
    short_text text;
    if constexpr (std::is_signed_v<U>)
      text.add_number(static_cast<int64_t>(v));
    else
      text.add_number(static_cast<uint64_t>(v));
    text.copy_to(out, size);
  } else if constexpr (std::is_floating_point_v<U>) {
    std::snprintf(out, size, "%g", static_cast<double>(v));
  } else if constexpr (std::is_same_v<U, dim3>) {
    short_text text;  // {x, y, z}
    text.add("{");
    text.add_number(v.x);
    text.add(", ");
    text.add_number(v.y);
    text.add(", ");
    text.add_number(v.z);
    text.add("}");
    text.copy_to(out, size);
  } else {
    put(out, size, "{...}");  // structs, unions and arrays passed by value
  }
  return 0;
}

}  // namespace arg_format_detail

// The arg_formatter of a member of type T (api_args.hpp).
template <typename T>
int32_t format_arg(const void* value, int32_t max_deref, char* out, size_t size) {
  if (size == 0) return 0;
  if constexpr (std::is_array_v<T>) {
    arg_format_detail::put(out, size, "{...}");
    return 0;
  } else {
    std::remove_cv_t<T> copy;  // the value may sit unaligned in a copied block
    std::memcpy(static_cast<void*>(&copy), value, sizeof(copy));
    return arg_format_detail::format(copy, max_deref, out, size);
  }
}

}  // namespace rocprof::cuda
