// The aarch64 build's way to a Scan: it runs under qemu-user, where no
// AArch64 disassembler is built, so it finds which ELF file and address
// each entry point is at and asks the host's arm64_reader (named by
// LOCKSTEP_ISA_READER) to read them there. Under qemu-user, a guest's
// exec of a host binary is run by the host kernel, natively.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "isa/isa.h"

namespace lockstep::isa {

// The Scan of the code reachable from `entries`, with run-time addresses;
// nullopt, with the reason in `why`, when there is no reader to run or it
// failed.
std::optional<Scan> scan_with_reader(std::span<const void* const> entries, std::string* why);

}  // namespace lockstep::isa
