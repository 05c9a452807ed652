#include "symbolizer.hpp"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <unistd.h>

#include <cstdlib>
#include <utility>

namespace rocprof::callstack {

std::string demangle_symbol(const char* symbol) {
  if (symbol == nullptr) return {};
  int status = 0;
  char* text = abi::__cxa_demangle(symbol, nullptr, nullptr, &status);
  if (status != 0 || text == nullptr) return symbol;
  std::string out{text};
  std::free(text);
  return out;
}

namespace {
char* no_debuginfo_path = nullptr;
const Dwfl_Callbacks proc_callbacks = {dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo,
                                       nullptr, &no_debuginfo_path};
}  // namespace

symbolizer::symbolizer() {
  Dwfl* dwfl = dwfl_begin(&proc_callbacks);
  if (dwfl == nullptr) return;
  dwfl_report_begin(dwfl);
  const int failed = dwfl_linux_proc_report(dwfl, ::getpid());
  if (dwfl_report_end(dwfl, nullptr, nullptr) != 0 || failed != 0) {
    dwfl_end(dwfl);
    return;
  }
  dwfl_ = dwfl;
}

symbolizer::~symbolizer() {
  if (dwfl_ != nullptr) dwfl_end(dwfl_);
}

resolved_frame symbolizer::resolve(uint64_t address, bool return_address) const {
  resolved_frame out;
  out.address = address;
  if (dwfl_ == nullptr || address == 0) return out;
  const Dwarf_Addr pc = return_address ? address - 1 : address;
  Dwfl_Module* module = dwfl_addrmodule(dwfl_, pc);
  if (module == nullptr) return out;
  Dwarf_Addr base = 0;
  const char* file_name = nullptr;
  const char* name =
      dwfl_module_info(module, nullptr, &base, nullptr, nullptr, nullptr, &file_name, nullptr);
  // The module name dwfl_linux_proc_report gives is the mapped file's path.
  out.module = name != nullptr ? name : (file_name != nullptr ? file_name : "");
  out.module_offset = address - base;
  GElf_Off offset = 0;
  GElf_Sym symbol{};
  if (const char* sym =
          dwfl_module_addrinfo(module, pc, &offset, &symbol, nullptr, nullptr, nullptr))
    out.function = demangle_symbol(sym);
  if (Dwfl_Line* line = dwfl_module_getsrc(module, pc)) {
    int line_number = 0;
    if (const char* source =
            dwfl_lineinfo(line, nullptr, &line_number, nullptr, nullptr, nullptr)) {
      out.file = source;
      // Relative names are relative to the compilation directory: made whole, so that two
      // builds' "../src/a.cpp" stay apart and a reader can open the file.
      const char* dir = dwfl_line_comp_dir(line);
      if (!out.file.empty() && out.file[0] != '/' && dir != nullptr && *dir != '\0')
        out.file = std::string(dir) + "/" + out.file;
      out.line = line_number > 0 ? static_cast<uint32_t>(line_number) : 0;
    }
  }
  return out;
}

namespace {

// A DWARF function's name: its linkage name demangled (with namespaces and parameters, like
// the ELF symbol), else its plain name; through DW_AT_abstract_origin for inlined copies.
std::string die_function_name(Dwarf_Die* die) {
  Dwarf_Attribute attr;
  for (int at : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name})
    if (Dwarf_Attribute* a = dwarf_attr_integrate(die, at, &attr))
      if (const char* linkage = dwarf_formstring(a)) return demangle_symbol(linkage);
  if (Dwarf_Attribute* a = dwarf_attr_integrate(die, DW_AT_name, &attr))
    if (const char* name = dwarf_formstring(a)) return name;
  return {};
}

// Where an inlined call was made: (file, line) from its DW_AT_call_file / DW_AT_call_line.
std::pair<std::string, uint32_t> call_site(Dwarf_Die* inlined, Dwarf_Die* cu) {
  std::pair<std::string, uint32_t> out{{}, 0};
  Dwarf_Attribute attr;
  Dwarf_Word value = 0;
  if (dwarf_formudata(dwarf_attr(inlined, DW_AT_call_line, &attr), &value) == 0)
    out.second = static_cast<uint32_t>(value);
  Dwarf_Files* files = nullptr;
  size_t count = 0;
  if (dwarf_formudata(dwarf_attr(inlined, DW_AT_call_file, &attr), &value) == 0 &&
      dwarf_getsrcfiles(cu, &files, &count) == 0 && value < count)
    if (const char* file = dwarf_filesrc(files, value, nullptr, nullptr)) out.first = file;
  return out;
}

}  // namespace

std::vector<resolved_frame> symbolizer::resolve_inlined(uint64_t address,
                                                        bool return_address) const {
  resolved_frame outer = resolve(address, return_address);
  std::vector<resolved_frame> frames;
  if (dwfl_ == nullptr || address == 0 || outer.file.empty()) return {outer};
  const Dwarf_Addr pc = return_address ? address - 1 : address;
  Dwfl_Module* module = dwfl_addrmodule(dwfl_, pc);
  Dwarf_Addr bias = 0;
  Dwarf_Die* cu = module != nullptr ? dwfl_module_addrdie(module, pc, &bias) : nullptr;
  Dwarf_Die* scopes = nullptr;
  const int n = cu != nullptr ? dwarf_getscopes(cu, pc - bias, &scopes) : -1;
  // scopes[0] is the innermost; each inlined call moves the location to its call site.
  std::string file = outer.file;
  uint32_t line = outer.line;
  for (int i = 0; i < n; ++i) {
    if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine) continue;
    resolved_frame f = outer;
    f.function = die_function_name(&scopes[i]);
    f.file = file;
    f.line = line;
    frames.push_back(std::move(f));
    auto [call_file, call_line] = call_site(&scopes[i], cu);
    if (!call_file.empty()) file = std::move(call_file);
    line = call_line;
  }
  std::free(scopes);
  outer.file = file;
  outer.line = line;
  frames.push_back(std::move(outer));
  return frames;
}

}  // namespace rocprof::callstack
