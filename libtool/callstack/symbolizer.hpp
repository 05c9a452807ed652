// Resolving return addresses of this process to function, source file, line and module with
// libdw (elfutils), once per distinct address at the end of the run, while the process (and
// every module its stacks point into) is still alive: the modules are read from
// /proc/<pid>/maps. Addresses without debug information keep their module, module offset and
// ELF symbol; addresses in no known module keep only the address.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct Dwfl;  // libdwfl's session (elfutils/libdwfl.h)

namespace rocprof::callstack {

struct resolved_frame {
  uint64_t address = 0;        // the return address as captured
  std::string function;        // demangled; the ELF symbol without debug info; empty if none
  std::string file;            // source file, empty without line information
  uint32_t line = 0;           // 0 without line information
  std::string module;          // path of the shared object or executable
  uint64_t module_offset = 0;  // address - module load base
};

class symbolizer {
 public:
  symbolizer();  // reports the modules of the calling process
  ~symbolizer();
  symbolizer(const symbolizer&) = delete;
  symbolizer& operator=(const symbolizer&) = delete;

  bool ok() const { return dwfl_ != nullptr; }
  // `return_address`: the address follows a call (every frame but a signal frame), so the
  // call's own line is looked up at address - 1.
  resolved_frame resolve(uint64_t address, bool return_address = true) const;
  // The same address as source-level frames, innermost first: one per function inlined at
  // that point (named from DWARF, at the line inside it), then the function the code belongs
  // to at the line where the innermost inlined call was made. Without inlined calls (or debug
  // information) exactly resolve()'s frame.
  std::vector<resolved_frame> resolve_inlined(uint64_t address, bool return_address = true) const;

 private:
  ::Dwfl* dwfl_ = nullptr;
};

// The demangled form of a C++ symbol; the symbol itself when it is not a mangled name.
std::string demangle_symbol(const char* symbol);

}  // namespace rocprof::callstack
