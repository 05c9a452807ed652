// Kernel symbol -> code object through the cubin's ELF symbol table (cubin_symbols.hpp), on
// ELF images built here byte by byte, and through the session: a module load followed by a
// kernel record reports the kernel with that module's code object id.
#include <elf.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "cubin_symbols.hpp"
#include "cupti_session.hpp"
#include "recording_sink.hpp"
#include "synthetic_cupti.hpp"

namespace rocprof::cuda {
namespace {

struct symbol_spec {
  std::string name;
  unsigned char type;
  uint16_t section;
};

// A minimal ELF64 file: header, .strtab, .symtab, section headers [null, .text, .symtab, .strtab].
std::vector<unsigned char> make_elf(const std::vector<symbol_spec>& symbols) {
  std::string strings(1, '\0');
  std::vector<Elf64_Sym> syms(1);  // index 0 is the null symbol
  for (const symbol_spec& s : symbols) {
    Elf64_Sym sym{};
    sym.st_name = static_cast<uint32_t>(strings.size());
    sym.st_info = static_cast<unsigned char>(ELF64_ST_INFO(STB_GLOBAL, s.type));
    sym.st_shndx = s.section;
    syms.push_back(sym);
    strings += s.name;
    strings += '\0';
  }
  const uint64_t strtab_off = sizeof(Elf64_Ehdr);
  const uint64_t symtab_off = (strtab_off + strings.size() + 7) / 8 * 8;
  std::vector<unsigned char> image(symtab_off);
  std::memcpy(image.data() + strtab_off, strings.data(), strings.size());
  image.resize(image.size() + syms.size() * sizeof(Elf64_Sym));
  std::memcpy(image.data() + symtab_off, syms.data(), syms.size() * sizeof(Elf64_Sym));
  const uint64_t shoff = image.size();
  Elf64_Shdr sh[4]{};
  sh[1].sh_type = SHT_PROGBITS;
  sh[2].sh_type = SHT_SYMTAB;
  sh[2].sh_offset = symtab_off;
  sh[2].sh_size = syms.size() * sizeof(Elf64_Sym);
  sh[2].sh_entsize = sizeof(Elf64_Sym);
  sh[2].sh_link = 3;
  sh[3].sh_type = SHT_STRTAB;
  sh[3].sh_offset = strtab_off;
  sh[3].sh_size = strings.size();
  image.resize(image.size() + sizeof(sh));
  std::memcpy(image.data() + shoff, sh, sizeof(sh));
  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_shoff = shoff;
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = 4;
  std::memcpy(image.data(), &eh, sizeof(eh));
  return image;
}

TEST(cubin_symbols, defined_functions_only) {
  const auto elf = make_elf({{"_Z6kernelPf", STT_FUNC, 1},
                             {"_Z6helperv", STT_FUNC, 1},
                             {"a_global_variable", STT_OBJECT, 1},
                             {"_Z8externalv", STT_FUNC, SHN_UNDEF}});
  EXPECT_EQ(cubin_function_names(elf.data(), elf.size()),
            (std::vector<std::string>{"_Z6kernelPf", "_Z6helperv"}));
}

TEST(cubin_symbols, not_an_elf_or_cut_short_gives_nothing_and_reads_nothing_outside) {
  const auto elf = make_elf({{"_Z6kernelPf", STT_FUNC, 1}});
  const char text[] = "not an ELF file at all, but long enough to hold a header.........";
  EXPECT_TRUE(cubin_function_names(text, sizeof(text)).empty());
  EXPECT_TRUE(cubin_function_names(nullptr, 100).empty());
  // Every truncation: never a crash, and never a name that was cut (sanitizers catch reads).
  for (size_t n = 0; n < elf.size(); ++n) {
    const std::vector<unsigned char> cut(elf.begin(), elf.begin() + static_cast<long>(n));
    for (const std::string& name : cubin_function_names(cut.data(), cut.size()))
      EXPECT_EQ(name, "_Z6kernelPf");
  }
}

TEST(cubin_symbols, a_kernel_reports_the_code_object_whose_cubin_defines_it) {
  test::synthetic_cupti api;
  test::recording_sink sink;
  sink.domains[static_cast<size_t>(cuda_domain::kernel_dispatch)] = true;
  cupti_session s{api, sink};
  ASSERT_EQ(s.start(), session_state::running);
  const auto first = make_elf({{"_Z1av", STT_FUNC, 1}});
  const auto second = make_elf({{"_Z1bv", STT_FUNC, 1}, {"_Z1cv", STT_FUNC, 1}});
  for (const auto* image : {&first, &second}) {
    CUpti_ModuleResourceData m{};
    m.moduleId = 7;
    m.cubinSize = image->size();
    m.pCubin = reinterpret_cast<const char*>(image->data());
    CUpti_ResourceData rd{};
    rd.resourceDescriptor = &m;
    s.on_resource(CUPTI_CBID_RESOURCE_MODULE_LOADED, rd);
  }
  ASSERT_EQ(sink.code_objects.size(), 2U);
  CUpti_ActivityKernel10 a{}, b{}, unknown{};
  a.kind = b.kind = unknown.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  a.name = "_Z1av";
  b.name = "_Z1bv";
  unknown.name = "_Z7unknownv";
  for (const auto* k : {&b, &a, &unknown, &b})
    api.buffer_records.push_back(static_cast<const CUpti_Activity*>(static_cast<const void*>(k)));
  uint8_t dummy[8] = {};
  testing::internal::CaptureStderr();
  s.on_buffer_completed(nullptr, 0, dummy, sizeof(dummy));
  testing::internal::GetCapturedStderr();
  ASSERT_EQ(sink.kernel_symbols.size(), 3U);  // once per kernel name
  EXPECT_EQ(sink.kernel_symbols[0].second, "_Z1bv");
  EXPECT_EQ(sink.kernel_symbols[0].first, sink.code_objects[1].code_object_id);
  EXPECT_EQ(sink.kernel_symbols[1].second, "_Z1av");
  EXPECT_EQ(sink.kernel_symbols[1].first, sink.code_objects[0].code_object_id);
  EXPECT_EQ(sink.kernel_symbols[2].second, "_Z7unknownv");
  EXPECT_EQ(sink.kernel_symbols[2].first, 0U);
  s.stop();
}

}  // namespace
}  // namespace rocprof::cuda
