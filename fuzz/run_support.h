// What every fuzz check shares: exactly-sized buffers, the backend filter,
// and the report's stable first line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "backend.h"
#include "program.h"

namespace lockstep::fuzz {

// HeapBuffer is a heap buffer of exactly the size asked for (64-byte aligned
// start), so that ASan sees a read or write one byte past the data.
struct HeapBuffer {
  explicit HeapBuffer(size_t n);
  uint8_t* get() const { return ptr.get(); }

 private:
  struct Free {
    void operator()(uint8_t* p) const;
  };
  std::unique_ptr<uint8_t, Free> ptr;
};

// runs_on says whether a program runs on `b`: usable with the effective
// features, and matched by LOCKSTEP_FUZZ_BACKEND if that is set (a name, so
// that a report, and `lockstep run`, can tell backends apart, or a glob such
// as "*/x86-phe"). An unknown or unusable name there is an error (exit 2),
// not a run that checks nothing.
bool runs_on(const Backend& b);

// announce_backends prints, once at start-up, which backends of the family
// the harness checks and which CPU features decided it, so that a report
// from any machine says what ran, and the line that reproduces a crash
// with those features (`input`: the file the run was given, or empty);
// with no backend to check it says SKIP and exits 77.
void announce_backends(std::string_view harness, std::string_view family, std::string_view input);

// print_signature writes the stable first line crash grouping keys on:
// "lockstep: <alg>/<impl> != oracle (<operation>)", then the reproduce line
// ("reproduce: LOCKSTEP_CPU=all=off,+sse2,... ./fuzz_sha256 crash-...").
void print_signature(const Program& p, const Backend& b);

std::string hex(const Bytes& b);

}  // namespace lockstep::fuzz
