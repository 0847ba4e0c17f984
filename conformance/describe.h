// What this binary is and sees, as JSON, for `lockstep run`: the CPU report,
// every algorithm and backend compiled in, which are usable and which are
// selected. The run matrix takes its rows from here, so an emulated build
// (arm64 under QEMU) describes its own backends.
#pragma once

#include <nlohmann/json.hpp>

namespace lockstep::conformance {

nlohmann::json describe();

}  // namespace lockstep::conformance
