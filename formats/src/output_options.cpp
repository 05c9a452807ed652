#include "rocprof/trace/writer.hpp"

namespace rocprof::trace {

std::string output_options::path_for(const std::string& name, const std::string& ext) const {
  std::string path = output_directory;
  if (!path.empty() && path.back() != '/') path += '/';
  path += file_prefix;
  path += '_';
  path += name;
  path += '.';
  path += ext;
  return path;
}

}  // namespace rocprof::trace
