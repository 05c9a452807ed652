// Which kernel name a writer prints: the ROCTx/NVTX region with --kernel-rename when the dispatch
// has one, else the symbol's display name (already formatted per -M / -T by the producer), else
// the demangled or mangled symbol.
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "rocprof/trace/model.hpp"
#include "rocprof/trace/writer.hpp"

namespace rocprof::formats {

std::string_view symbol_display_name(const trace::kernel_symbol_info& symbol);

// A dispatch's registers per work-item: its kernel's (the symbol's), as rocpd and rocprofv3
// report them; the record's own values only where no symbol was defined (the core's dispatch
// info carries none, so the record's are 0 in a profiled run).
struct kernel_registers {
  uint32_t arch_vgpr = 0, accum_vgpr = 0, sgpr = 0;
};
inline kernel_registers registers_of(const trace::kernel_dispatch_record& r,
                                     const trace::kernel_symbol_info* symbol) {
  if (symbol != nullptr)
    return {symbol->arch_vgpr_count, symbol->accum_vgpr_count, symbol->sgpr_count};
  return {r.arch_vgpr_count, r.accum_vgpr_count, r.sgpr_count};
}

class kernel_names {
 public:
  kernel_names(const trace::trace_definitions& defs, const trace::output_options& options);
  const trace::kernel_symbol_info* find(uint64_t kernel_id) const;
  // Rename-aware name of a dispatch.
  std::string_view name(const trace::kernel_dispatch_record& r) const;
  std::string_view name(uint64_t kernel_id, trace::string_id region_name) const;

 private:
  const trace::trace_definitions* defs_;
  bool rename_;
  std::unordered_map<uint64_t, const trace::kernel_symbol_info*> symbols_;
};

}  // namespace rocprof::formats
