// The values of lockstep's numeric and on/off variables, read one way
// everywhere: by the CLI, which refuses a bad one before anything runs, and
// by the programs that act on them (the suites, the trap emulators), which
// stop with status 2 instead of reading garbage as a default.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lockstep::env {

// parse_seed reads LOCKSTEP_SEED: decimal, or hexadecimal after 0x as the
// suites print it back ("0x6c6f636b73746570"). Nothing else: no sign, no
// blanks, no text after the digits, nothing past 2^64 - 1.
inline std::optional<uint64_t> parse_seed(std::string_view s) {
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  for (const char c : s) {
    unsigned d;
    if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
    else return std::nullopt;
    if (v > (UINT64_MAX - d) / base) return std::nullopt;
    v = v * base + d;
  }
  return v;
}

// parse_flag reads a switch that is 0 or 1 (LOCKSTEP_REQUIRE_ALL,
// LOCKSTEP_TRAP_PATCH); anything else is no answer.
inline std::optional<bool> parse_flag(std::string_view s) {
  if (s == "0") return false;
  if (s == "1") return true;
  return std::nullopt;
}

// What to say of a bad value: the variable, the value, what it takes.
inline std::string seed_error(std::string_view value) {
  return "LOCKSTEP_SEED=" + std::string(value) +
         ": not a seed (a decimal number, or hexadecimal after 0x as the suites print it)";
}
inline std::string flag_error(std::string_view name, std::string_view value) {
  return std::string(name) + "=" + std::string(value) + ": must be 0 or 1";
}

}  // namespace lockstep::env
