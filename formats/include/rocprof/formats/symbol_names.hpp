// Kernel symbol name forms, as rocprofv3 shows them: the mangled symbol, its demangled form, the
// truncated "bare" function name (-T), and the display name chosen by -M / -T. Producers (the
// tool library, offline converters) call format_symbol_names() once per symbol; writers then
// read kernel_symbol_info::display_name.
#pragma once

#include <string>
#include <string_view>

#include "rocprof/trace/model.hpp"

namespace rocprof::formats {

// Itanium C++ demangling; a name that is not a mangled C++ symbol comes back unchanged.
std::string demangle_symbol(std::string_view mangled);

// The bare function name of a demangled symbol: no return type, no enclosing namespaces or
// classes, no template arguments, no parameter list. "void ns::fill<float>(float*, int)" ->
// "fill". Names without such decorations come back unchanged.
std::string truncate_symbol(std::string_view demangled);

// Fills demangled_name, truncated_name and display_name from mangled_name:
// display = mangled with -M (demangle false), truncated with -T, demangled otherwise.
void format_symbol_names(trace::kernel_symbol_info& symbol, bool demangle, bool truncate);

}  // namespace rocprof::formats
