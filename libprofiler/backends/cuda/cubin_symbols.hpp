// The function names a cubin defines, read from its ELF symbol table. CUPTI's kernel records
// name the kernel but not its module, and CUPTI cannot enable the MODULE/FUNCTION activity kinds
// that would link them (cupti-notes §3e); the cubin handed to MODULE_LOADED is a complete ELF
// file, so its own symbol table says which kernels it holds. Pure and bounds-checked: a cubin
// that is not a well-formed ELF64 file yields no names.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rocprof::cuda {

// Names of the defined function symbols (STT_FUNC, section index set) of an ELF64 image.
std::vector<std::string> cubin_function_names(const void* image, size_t size);

}  // namespace rocprof::cuda
