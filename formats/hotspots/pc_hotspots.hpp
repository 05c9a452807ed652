// The hot-spot report's declarations are public (rocprof/formats/pc_hotspots.hpp: `rocpd
// summary` builds the same report from a database); this name stays for the formats' own code.
#pragma once

#include "rocprof/formats/pc_hotspots.hpp"
