// What a check was doing when it faulted. A SIGSEGV, SIGBUS, SIGILL or
// SIGFPE inside a backend kills the process before any assertion can speak,
// as does the abort() of a trap emulator that refuses an operand;
// this prints the check, the case (lengths, offsets, counters: whatever the
// check noted) and, for a fault in a guard page, whose guard and how far
// past the buffer, then lets the process die of the signal as before (or
// hands the signal to the handler that was there, a sanitizer's).
//
// Everything the handler reads is written ahead of time into fixed storage,
// so it allocates nothing and calls only write(2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace lockstep::crash {

// install sets the handler up once for the process. `program` (copied)
// starts each line ("conformance_tests", "fuzz_sha256_replay"). SIGILL is left alone
// where a handler is already installed: the trap emulators use it.
void install(const char* program);

// set_check names what is running ("HashConformance.BufferOverruns/sha256_
// x86_shani (sha224 via sha256/x86-shani)"); the case notes are cleared.
void set_check(std::string_view check);

// CaseNote adds one line to the case description while it lives; notes nest
// (an outer loop's, then an inner one's), as SCOPED_TRACE's do.
class CaseNote {
 public:
  explicit CaseNote(std::string_view text);
  ~CaseNote();
  CaseNote(const CaseNote&) = delete;
  CaseNote& operator=(const CaseNote&) = delete;

 private:
  size_t restore_;
};

// A guarded region: [begin, end) usable, with an unmapped page of `page`
// bytes on each side. Registered regions let the handler say "3 bytes past
// the end of 'src'". `name` must outlive the registration.
int register_guarded(const char* name, const uint8_t* begin, const uint8_t* end, size_t page);
void unregister_guarded(int slot);

// describe_address writes what the handler would say about `addr` into
// `out` (for tests): the buffer and side of the guard it falls in, or
// nothing when it is in none. Returns the length written.
size_t describe_address(uintptr_t addr, char* out, size_t cap);

}  // namespace lockstep::crash
