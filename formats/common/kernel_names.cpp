#include "common/kernel_names.hpp"

namespace rocprof::formats {

std::string_view symbol_display_name(const trace::kernel_symbol_info& s) {
  if (!s.display_name.empty()) return s.display_name;
  if (!s.demangled_name.empty()) return s.demangled_name;
  return s.mangled_name;
}

kernel_names::kernel_names(const trace::trace_definitions& defs,
                           const trace::output_options& options)
    : defs_{&defs}, rename_{options.kernel_rename} {
  for (const auto& s : defs.kernel_symbols)
    symbols_.emplace(s.kernel_id, &s);
}

const trace::kernel_symbol_info* kernel_names::find(uint64_t kernel_id) const {
  auto it = symbols_.find(kernel_id);
  return it == symbols_.end() ? nullptr : it->second;
}

std::string_view kernel_names::name(uint64_t kernel_id, trace::string_id region_name) const {
  if (rename_ && region_name != trace::empty_string) {
    auto region = defs_->str(region_name);
    if (!region.empty()) return region;
  }
  const auto* s = find(kernel_id);
  return s ? symbol_display_name(*s) : std::string_view{};
}

std::string_view kernel_names::name(const trace::kernel_dispatch_record& r) const {
  return name(r.kernel_id, r.region_name);
}

}  // namespace rocprof::formats
