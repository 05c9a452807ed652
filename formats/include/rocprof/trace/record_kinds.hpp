// What the trace model derives from its one list of record kinds (ROCPROF_TRACE_RECORD_KINDS in
// model.hpp), so that per-kind code loops over the kinds instead of naming them:
//   record_kind, record_kind_count       the enum, one enumerator per listed kind, in list order
//   record_traits<T>                     kind and name of a listed struct (absent for others)
//   record_types                         the structs as a type_list, in kind order
//   for_each_record_type(f)              f(type_tag<T>{}) for every struct, in kind order
//   per_record_type<Holder>              a std::tuple of Holder<T>, one per kind
//   record_kind_name(k), record_size(k)  tables indexed by kind
//   has_record_time<T>, record_time_ns() when a record begins, for cutting a run at a time
// Every table here has one entry per kind by construction; nothing in it names a kind.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "rocprof/trace/model.hpp"

namespace rocprof::trace {

// clang-format off
enum class record_kind : uint8_t {
#define ROCPROF_TRACE_KIND_ENUMERATOR(TYPE, NAME) NAME,
  ROCPROF_TRACE_RECORD_KINDS(ROCPROF_TRACE_KIND_ENUMERATOR)
#undef ROCPROF_TRACE_KIND_ENUMERATOR
  count
};
// clang-format on

inline constexpr size_t record_kind_count = static_cast<size_t>(record_kind::count);

template <typename T>
struct record_traits;  // defined for the listed structs only
template <record_kind K>
struct record_type_of;  // the struct of a kind

// Records are spilled to disk and read back as bytes: they must be plain.
#define ROCPROF_TRACE_KIND_TRAITS(TYPE, NAME)                                          \
  template <>                                                                          \
  struct record_traits<TYPE> {                                                         \
    static constexpr record_kind kind = record_kind::NAME;                             \
    static constexpr std::string_view name = #NAME;                                    \
  };                                                                                   \
  template <>                                                                          \
  struct record_type_of<record_kind::NAME> {                                           \
    using type = TYPE;                                                                 \
  };                                                                                   \
  static_assert(std::is_trivially_copyable_v<TYPE> && std::is_standard_layout_v<TYPE>, \
                #TYPE " must be a plain struct");
ROCPROF_TRACE_RECORD_KINDS(ROCPROF_TRACE_KIND_TRAITS)
#undef ROCPROF_TRACE_KIND_TRAITS

template <typename... Ts>
struct type_list {
  static constexpr size_t size = sizeof...(Ts);
};

template <typename T>
struct type_tag {
  using type = T;
};

namespace detail {
template <size_t... I>
type_list<typename record_type_of<static_cast<record_kind>(I)>::type...> record_types_in(
    std::index_sequence<I...>);

template <template <typename> class Holder, typename... Ts>
std::tuple<Holder<Ts>...> holders_of(type_list<Ts...>);

template <typename F, typename... Ts>
constexpr void call_with_each(F& f, type_list<Ts...>) {
  (f(type_tag<Ts>{}), ...);
}

template <typename... Ts>
constexpr std::array<std::string_view, sizeof...(Ts)> names_of(type_list<Ts...>) {
  return {record_traits<Ts>::name...};
}

template <typename... Ts>
constexpr std::array<size_t, sizeof...(Ts)> sizes_of(type_list<Ts...>) {
  return {sizeof(Ts)...};
}
}  // namespace detail

// Every record struct, in kind order (record_types's i-th type is the struct of kind i).
using record_types =
    decltype(detail::record_types_in(std::make_index_sequence<record_kind_count>{}));

// Calls f(type_tag<T>{}) for every record struct T, in kind order.
template <typename F>
constexpr void for_each_record_type(F&& f) {
  detail::call_with_each(f, record_types{});
}

// One Holder<T> per record kind, in kind order; std::get<Holder<T>> finds a kind's.
template <template <typename> class Holder>
using per_record_type = decltype(detail::holders_of<Holder>(record_types{}));

inline constexpr std::array<std::string_view, record_kind_count> record_kind_names =
    detail::names_of(record_types{});
inline constexpr std::array<size_t, record_kind_count> record_sizes =
    detail::sizes_of(record_types{});

constexpr std::string_view record_kind_name(record_kind kind) {
  return record_kind_names[static_cast<size_t>(kind)];
}
constexpr size_t record_size(record_kind kind) {
  return record_sizes[static_cast<size_t>(kind)];
}

// When a record begins: start_ns for intervals (API calls, dispatches, copies ...), timestamp_ns
// for samples. A kind with neither (a counter value belongs to its dispatch) has no time of its
// own: has_record_time<T> is false and time-based cuts keep its records.
namespace detail {
template <typename T, typename = void>
struct has_start_ns : std::false_type {};
template <typename T>
struct has_start_ns<T, std::void_t<decltype(&T::start_ns)>> : std::true_type {};
template <typename T, typename = void>
struct has_timestamp_ns : std::false_type {};
template <typename T>
struct has_timestamp_ns<T, std::void_t<decltype(&T::timestamp_ns)>> : std::true_type {};
}  // namespace detail

template <typename T>
inline constexpr bool has_record_time =
    detail::has_start_ns<T>::value || detail::has_timestamp_ns<T>::value;

template <typename T>
constexpr uint64_t record_time_ns(const T& record) {
  static_assert(has_record_time<T>, "this kind's records carry no time");
  if constexpr (detail::has_start_ns<T>::value)
    return record.start_ns;
  else
    return record.timestamp_ns;
}

}  // namespace rocprof::trace
