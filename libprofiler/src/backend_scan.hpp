// Where backends are and which files are backends (backend_abi.h): the one search of the
// project. A backend is a librocprofiler-sdk-<name>.so of the backend directory whose dynamic
// symbol table defines the manifest; that is read from the file, without loading it, because
// the directory also holds the tool libraries, whose loading would run their code.
#pragma once

#include <string>
#include <vector>

namespace rocprof::core {

struct backend_file {
  std::string name;  // <name> of librocprofiler-sdk-<name>.so
  std::string path;
};

/// The directory of librocprofiler-sdk.so ("" when unknown).
std::string core_library_directory();

/// $ROCPROF_BACKEND_DIR, else the rocprofiler-sdk directory next to this library.
std::string backend_directory();

/// The file backend `name` has in `directory` (whether or not it exists).
std::string backend_path(const std::string& directory, const std::string& name);

/// The backends of `directory`, by name; none when it does not exist.
std::vector<backend_file> find_backend_files(const std::string& directory);

/// The ELF64 file at `path` defines (exports) `symbol` in its dynamic symbol table.
bool defines_dynamic_symbol(const std::string& path, const char* symbol);

}  // namespace rocprof::core
