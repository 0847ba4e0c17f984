// What every fuzz check shares: exactly-sized buffers, the backend filter,
// and the report's stable first line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

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
// features, and the one named by LOCKSTEP_FUZZ_BACKEND if that is set (so
// that a report, and `lockstep run`, can tell backends apart). An unknown or
// unusable name there is an error (exit 2), not a run that checks nothing.
bool runs_on(const Backend& b);

// print_signature writes the stable first line crash grouping keys on:
// "lockstep: <alg>/<impl> != oracle (<operation>)".
void print_signature(const Program& p, const Backend& b);

std::string hex(const Bytes& b);

}  // namespace lockstep::fuzz
