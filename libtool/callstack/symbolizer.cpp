#include "symbolizer.hpp"

#include <cxxabi.h>
#include <elfutils/libdwfl.h>
#include <unistd.h>

#include <cstdlib>

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
    if (const char* source = dwfl_lineinfo(line, nullptr, &line_number, nullptr, nullptr, nullptr)) {
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

}  // namespace rocprof::callstack
