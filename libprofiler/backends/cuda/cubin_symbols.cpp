#include "cubin_symbols.hpp"

#include <elf.h>

#include <cstring>

namespace rocprof::cuda {
namespace {

// Copies a T from image[offset] when it lies inside the image (ELF fields need not be aligned
// in the driver's buffer, so never cast in place).
template <typename T>
bool read_at(const unsigned char* image, size_t size, uint64_t offset, T& out) {
  if (offset > size || size - offset < sizeof(T)) return false;
  std::memcpy(&out, image + offset, sizeof(T));
  return true;
}

}  // namespace

std::vector<std::string> cubin_function_names(const void* data, size_t size) {
  std::vector<std::string> names;
  const auto* image = static_cast<const unsigned char*>(data);
  Elf64_Ehdr eh{};
  if (image == nullptr || !read_at(image, size, 0, eh) ||
      std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_shentsize != sizeof(Elf64_Shdr))
    return names;
  for (uint16_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr symtab{};
    if (!read_at(image, size, eh.e_shoff + uint64_t{i} * sizeof(Elf64_Shdr), symtab)) break;
    if (symtab.sh_type != SHT_SYMTAB || symtab.sh_entsize != sizeof(Elf64_Sym)) continue;
    Elf64_Shdr strtab{};
    if (symtab.sh_link >= eh.e_shnum ||
        !read_at(image, size, eh.e_shoff + uint64_t{symtab.sh_link} * sizeof(Elf64_Shdr), strtab) ||
        strtab.sh_offset > size || strtab.sh_size > size - strtab.sh_offset)
      continue;
    const char* strings = reinterpret_cast<const char*>(image + strtab.sh_offset);
    const uint64_t count = symtab.sh_size / sizeof(Elf64_Sym);
    for (uint64_t s = 0; s < count; ++s) {
      Elf64_Sym sym{};
      if (!read_at(image, size, symtab.sh_offset + s * sizeof(Elf64_Sym), sym)) break;
      if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF ||
          sym.st_name >= strtab.sh_size)
        continue;
      // Bounded by the string table: a name missing its terminator is cut at the table's end.
      const size_t max = static_cast<size_t>(strtab.sh_size - sym.st_name);
      const char* name = strings + sym.st_name;
      const size_t length = strnlen(name, max);
      if (length > 0) names.emplace_back(name, length);
    }
  }
  return names;
}

}  // namespace rocprof::cuda
