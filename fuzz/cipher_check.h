// Runs a decoded ChaCha program through every available backend and
// compares the output, and the counter left in the state, with the oracle's
// one-shot answer (Crypto++, with lockstep's wrap semantics). A mismatch
// prints the stable signature "lockstep: <alg>/<impl> != oracle (crypt)"
// and a report, and aborts.
#pragma once

#include "program.h"

namespace lockstep::fuzz {

// check_cipher_program returns normally when every backend agrees.
void check_cipher_program(const Program& p);

}  // namespace lockstep::fuzz
