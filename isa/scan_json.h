// A Scan as JSON: how the arm64 reader, a host program, hands what it read
// to the aarch64 build's isa column, which runs under QEMU.
#pragma once

#include <nlohmann/json.hpp>

#include "isa/isa.h"

namespace lockstep::isa {

nlohmann::json to_json(const Scan& s);
// Throws nlohmann::json::exception on a document of another shape.
Scan scan_from_json(const nlohmann::json& j);

}  // namespace lockstep::isa
