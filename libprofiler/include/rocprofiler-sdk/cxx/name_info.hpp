// Name tables of the tracing kinds and their operations, filled from the C API's name queries
// (rocprofiler_iterate_*_tracing_kinds, ..._kind_operations, rocprofiler_query_*_name):
//
//   auto names = rocprofiler::sdk::get_buffer_tracing_names();
//   std::string_view kind = names.at(record->kind);                    // "MEMORY_COPY"
//   std::string_view op   = names.at(record->kind, record->operation);  // "MEMORY_COPY_..."
//   for (const auto& k : names)                       // every kind, indexed by its value
//     for (auto [op, name] : k.items()) ...           // its operations: id, pointer to name
//
// at() throws std::out_of_range for an unknown kind or operation; operator[] of a kind's entry
// too. The operations of backend-owned kinds (the CUDA API kinds) are named once the backend is
// loaded, i.e. once some context configured one of its kinds. Header-only; not thread-safe
// while being filled, read-only afterwards.
#pragma once

#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/cxx/details/mpl.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocprofiler::sdk {
namespace utility {

/// One kind: its value, its name and the names of its operations (indexed by operation id;
/// ids without a name hold the empty value).
template <typename EnumT, typename ValueT = std::string_view>
struct name_info_impl {
  using support_type = mpl::string_support<ValueT>;
  using enum_type = EnumT;
  using value_type = ValueT;
  using return_type = typename support_type::return_type;
  using item_type = std::pair<rocprofiler_tracing_operation_t, const value_type*>;
  using item_array_t = std::vector<item_type>;

  static_assert(support_type::value, "ValueT must be std::string_view, std::string or const char*");

  return_type operator()() const { return name; }
  return_type operator()(size_t operation) const { return operations.at(operation); }
  return_type operator[](size_t operation) const { return operations.at(operation); }

  /// (operation id, pointer to its name) for every operation slot, in id order.
  item_array_t items() const {
    item_array_t out;
    out.reserve(operations.size());
    for (size_t i = 0; i < operations.size(); ++i)
      out.emplace_back(static_cast<rocprofiler_tracing_operation_t>(i), &operations[i]);
    return out;
  }

  EnumT value = static_cast<EnumT>(0);
  value_type name = {};
  std::vector<value_type> operations = {};
};

/// Every kind of one enum (callback or buffer tracing), indexed by the kind's value.
template <typename EnumT, typename ValueT = std::string_view>
struct name_info {
  using value_type = name_info_impl<EnumT, ValueT>;
  using enum_type = EnumT;
  using support_type = typename value_type::support_type;
  using return_type = typename value_type::return_type;
  using item_type = const value_type*;
  using item_array_t = std::vector<item_type>;

  void emplace(EnumT kind, const char* kind_name) {
    value_type& entry = slot(kind);
    entry.value = kind;
    entry.name = support_type{}(kind_name);
  }
  void emplace(EnumT kind, rocprofiler_tracing_operation_t operation, const char* op_name) {
    if (operation < 0) throw std::out_of_range{"negative operation id"};
    value_type& entry = slot(kind);
    const auto index = static_cast<size_t>(operation);
    if (entry.operations.size() <= index)
      entry.operations.resize(index + 1, support_type::default_value());
    entry.operations[index] = support_type{}(op_name);
  }

  return_type at(EnumT kind) const { return impl.at(static_cast<size_t>(kind)).name; }
  return_type at(EnumT kind, rocprofiler_tracing_operation_t operation) const {
    if (operation < 0) throw std::out_of_range{"negative operation id"};
    return impl.at(static_cast<size_t>(kind)).operations.at(static_cast<size_t>(operation));
  }

  /// A pointer to every kind's entry, in value order.
  item_array_t items() const {
    item_array_t out;
    out.reserve(impl.size());
    for (const value_type& entry : impl)
      out.push_back(&entry);
    return out;
  }

  size_t size() const { return impl.size(); }
  auto begin() { return impl.begin(); }
  auto begin() const { return impl.begin(); }
  auto end() { return impl.end(); }
  auto end() const { return impl.end(); }

  value_type& operator[](size_t kind) { return impl.at(kind); }
  const value_type& operator[](size_t kind) const { return impl.at(kind); }

 private:
  value_type& slot(EnumT kind) {
    const auto index = static_cast<size_t>(kind);
    if (impl.size() <= index) impl.resize(index + 1);
    return impl[index];
  }

  std::vector<value_type> impl = {};
};

}  // namespace utility

template <typename Tp = std::string_view>
using callback_name_info_t = utility::name_info<rocprofiler_callback_tracing_kind_t, Tp>;
template <typename Tp = std::string_view>
using buffer_name_info_t = utility::name_info<rocprofiler_buffer_tracing_kind_t, Tp>;

using callback_name_info = callback_name_info_t<std::string_view>;
using buffer_name_info = buffer_name_info_t<std::string_view>;

namespace detail {

// Fills `table` from one family of the C API's name queries: the kind enum, its iteration
// functions and its name queries.
template <typename Table, typename KindT, typename IterateKinds, typename IterateOps,
          typename KindName, typename OpName>
void fill_names(Table& table, IterateKinds iterate_kinds, IterateOps iterate_ops,
                KindName kind_name, OpName op_name) {
  struct visit {
    Table* table;
    IterateOps iterate_ops;
    KindName kind_name;
    OpName op_name;
  } state{&table, iterate_ops, kind_name, op_name};
  iterate_kinds(
      [](KindT kind, void* data) -> int {
        auto& s = *static_cast<visit*>(data);
        const char* name = nullptr;
        if (s.kind_name(kind, &name, nullptr) == ROCPROFILER_STATUS_SUCCESS && name != nullptr)
          s.table->emplace(kind, name);
        s.iterate_ops(
            kind,
            [](KindT k, rocprofiler_tracing_operation_t op, void* d) -> int {
              auto& inner = *static_cast<visit*>(d);
              const char* op_text = nullptr;
              if (inner.op_name(k, op, &op_text, nullptr) == ROCPROFILER_STATUS_SUCCESS &&
                  op_text != nullptr)
                inner.table->emplace(k, op, op_text);
              return 0;
            },
            data);
        return 0;
      },
      &state);
}

}  // namespace detail

/// The names of every callback-tracing kind and operation the library knows now.
template <typename Tp = std::string_view>
callback_name_info_t<Tp> get_callback_tracing_names() {
  callback_name_info_t<Tp> table;
  detail::fill_names<callback_name_info_t<Tp>, rocprofiler_callback_tracing_kind_t>(
      table, &rocprofiler_iterate_callback_tracing_kinds,
      &rocprofiler_iterate_callback_tracing_kind_operations,
      &rocprofiler_query_callback_tracing_kind_name,
      &rocprofiler_query_callback_tracing_kind_operation_name);
  return table;
}

/// The names of every buffer-tracing kind and operation the library knows now.
template <typename Tp = std::string_view>
buffer_name_info_t<Tp> get_buffer_tracing_names() {
  buffer_name_info_t<Tp> table;
  detail::fill_names<buffer_name_info_t<Tp>, rocprofiler_buffer_tracing_kind_t>(
      table, &rocprofiler_iterate_buffer_tracing_kinds,
      &rocprofiler_iterate_buffer_tracing_kind_operations,
      &rocprofiler_query_buffer_tracing_kind_name,
      &rocprofiler_query_buffer_tracing_kind_operation_name);
  return table;
}

}  // namespace rocprofiler::sdk
