// Interned strings of the v2 library: records hand out `const char*` names that must outlive
// every buffer delivery, so each distinct text is kept once until process exit.
#pragma once

#include <string>

namespace rocprof::v2 {

/// A copy of text that stays valid until exit (nullptr for nullptr). Takes a lock: never on
/// the application's hot path (the core's delivery threads and API calls only).
const char* intern(const char* text);
const char* intern(const std::string& text);

}  // namespace rocprof::v2
