// Runs a decoded hash program through every available backend of its
// algorithm and compares each answer with the oracle's one-shot answer.
// A mismatch prints a report whose first line is the stable signature
// "lockstep: <alg>/<impl> != oracle (<operation>)" and aborts, so crash
// grouping works and a person can reproduce the program by hand.
#pragma once

#include <string>
#include <vector>

#include "program.h"

namespace lockstep::fuzz {

// What the oracle says; without an oracle (cross builds) the generic backend
// of the program's family (sha256/generic, sha512/generic) stands in, itself
// checked against the oracle natively.
struct Expected {
  std::string who;
  Bytes value1, value2;  // value2: finup_2x's second digest
};

Expected expected_for(const Program& p);

// check_hash_program returns normally when every backend agrees.
void check_hash_program(Program p);

}  // namespace lockstep::fuzz
