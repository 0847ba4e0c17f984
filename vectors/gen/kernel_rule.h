// The Linux kernel's rules for its hash test vectors
// (scripts/crypto/gen-hash-testvecs.py), computed with one oracle source.
// Shared by vectors_gen and the vector tests.
#pragma once

#include <cstddef>
#include <string_view>

#include "oracle.h"
#include "vector_file.h"

namespace lockstep::vectors {

// The lengths of the kernel's hash_testvecs.
inline constexpr size_t kKernelLengths[] = {0,   1,   2,   3,    16,   32,   48,   49,
                                            63,  64,  65,  127,  128,  129,  256,  511,
                                            513, 1000, 3333, 4096, 4128, 4160, 4224, 16384};

// kernel_consolidated_hash is hash_testvec_consolidated: `alg` over the
// concatenated digests of kernel_data(max_len)[:L] for L = 0..max_len.
Bytes kernel_consolidated_hash(std::string_view alg, oracle::Source s, size_t max_len);

// kernel_consolidated_hmac is hmac_testvec_consolidated: HMAC-`alg` keyed
// with kernel_data(32) over, for L = 0..max_len, kernel_data(max_len)[:L]
// followed by HMAC(key = kernel_data(L % 293), msg = kernel_data(max_len)[:L]).
Bytes kernel_consolidated_hmac(std::string_view alg, oracle::Source s, size_t max_len);

}  // namespace lockstep::vectors
