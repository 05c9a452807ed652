#include "backend_scan.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "rocprofiler-sdk/backend/backend_abi.h"

namespace rocprof::core {
namespace {

constexpr std::string_view k_prefix = ROCPROF_BACKEND_FILE_PREFIX;
constexpr std::string_view k_suffix = ROCPROF_BACKEND_FILE_SUFFIX;

// A read-only view of a file's bytes with bounds-checked copies out of it.
class file_bytes {
 public:
  explicit file_bytes(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat info {};
    if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
      void* map = ::mmap(nullptr, static_cast<size_t>(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (map != MAP_FAILED) {
        data_ = static_cast<const unsigned char*>(map);
        size_ = static_cast<size_t>(info.st_size);
      }
    }
    ::close(fd);
  }
  ~file_bytes() {
    if (data_ != nullptr) ::munmap(const_cast<unsigned char*>(data_), size_);
  }
  file_bytes(const file_bytes&) = delete;
  file_bytes& operator=(const file_bytes&) = delete;

  bool holds(uint64_t offset, uint64_t length) const {
    return offset <= size_ && length <= size_ - offset;
  }
  template <typename T>
  bool read(uint64_t offset, T& out) const {
    if (!holds(offset, sizeof(T))) return false;
    std::memcpy(&out, data_ + offset, sizeof(T));
    return true;
  }
  const char* text(uint64_t offset) const { return reinterpret_cast<const char*>(data_ + offset); }

 private:
  const unsigned char* data_ = nullptr;
  size_t size_ = 0;
};

bool native_elf64(const Elf64_Ehdr& header) {
  const int native = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
  return std::memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 &&
         header.e_ident[EI_CLASS] == ELFCLASS64 && header.e_ident[EI_DATA] == native &&
         header.e_shentsize == sizeof(Elf64_Shdr);
}

// Does the symbol table section `table` (names in section `strings`) define `symbol`?
bool table_defines(const file_bytes& file, const Elf64_Shdr& table, const Elf64_Shdr& strings,
                   std::string_view symbol) {
  if (table.sh_entsize != sizeof(Elf64_Sym) || !file.holds(table.sh_offset, table.sh_size) ||
      !file.holds(strings.sh_offset, strings.sh_size))
    return false;
  for (uint64_t i = 0; i < table.sh_size / sizeof(Elf64_Sym); ++i) {
    Elf64_Sym entry{};
    file.read(table.sh_offset + i * sizeof(Elf64_Sym), entry);
    if (entry.st_shndx == SHN_UNDEF || entry.st_name >= strings.sh_size) continue;
    const uint64_t room = strings.sh_size - entry.st_name;
    if (room <= symbol.size()) continue;  // the name and its terminating NUL must fit
    const char* name = file.text(strings.sh_offset + entry.st_name);
    if (std::memcmp(name, symbol.data(), symbol.size()) == 0 && name[symbol.size()] == '\0')
      return true;
  }
  return false;
}

// Any address inside this library, for dladdr.
void anchor() {}

}  // namespace

std::string core_library_directory() {
  Dl_info self{};
  if (dladdr(reinterpret_cast<void*>(&anchor), &self) == 0 || self.dli_fname == nullptr) return {};
  const std::string path(self.dli_fname);
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::string backend_directory() {
  if (const char* dir = std::getenv(ROCPROF_BACKEND_DIR_ENV); dir != nullptr && dir[0] != '\0')
    return dir;
  const std::string library_dir = core_library_directory();
  if (library_dir.empty()) return ROCPROF_BACKEND_SUBDIR;
  return library_dir + "/" ROCPROF_BACKEND_SUBDIR;
}

std::string backend_path(const std::string& directory, const std::string& name) {
  return directory + "/" + std::string(k_prefix) + name + std::string(k_suffix);
}

std::vector<backend_file> find_backend_files(const std::string& directory) {
  std::vector<backend_file> found;
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return found;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string_view file(entry->d_name);
    if (file.size() <= k_prefix.size() + k_suffix.size() ||
        file.substr(0, k_prefix.size()) != k_prefix ||
        file.substr(file.size() - k_suffix.size()) != k_suffix)
      continue;
    backend_file backend;
    backend.name =
        std::string(file.substr(k_prefix.size(), file.size() - k_prefix.size() - k_suffix.size()));
    backend.path = directory + "/" + std::string(file);
    if (defines_dynamic_symbol(backend.path, ROCPROF_BACKEND_MANIFEST_SYMBOL))
      found.push_back(std::move(backend));
  }
  ::closedir(dir);
  std::sort(found.begin(), found.end(),
            [](const backend_file& a, const backend_file& b) { return a.name < b.name; });
  return found;
}

bool defines_dynamic_symbol(const std::string& path, const char* symbol) {
  const file_bytes file(path);
  Elf64_Ehdr header{};
  if (symbol == nullptr || !file.read(0, header) || !native_elf64(header)) return false;
  const auto section = [&](uint64_t index, Elf64_Shdr& out) {
    return index < header.e_shnum && file.read(header.e_shoff + index * sizeof(Elf64_Shdr), out);
  };
  for (uint64_t i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr table{}, strings{};
    if (!section(i, table) || table.sh_type != SHT_DYNSYM) continue;
    return section(table.sh_link, strings) && table_defines(file, table, strings, symbol);
  }
  return false;
}

}  // namespace rocprof::core
