// The parameters of the per-backend suites: every (hash algorithm, backend of
// its family) pair that the catalog lists, and the names GoogleTest shows
// for them. describe.cpp reports the same names to `lockstep run`, which
// folds test results into its matrix by them.
#pragma once

#include <string>
#include <vector>

#include "catalog.h"

namespace lockstep::conformance {

// HashParam is one row of the matrix: an algorithm and a backend of its
// family. Every compiled backend is listed, usable on this CPU or not (Go's
// rule): the fixture skips, or fails under LOCKSTEP_REQUIRE_ALL=1.
struct HashParam {
  const catalog::HashAlgorithm* alg;
  const Backend* backend;
};

// CipherParam is the same for a ChaCha variant.
struct CipherParam {
  const catalog::CipherAlgorithm* alg;
  const Backend* backend;
};

// hash_params lists every pair, algorithms in catalog order, backends in
// registry order (best first, generic last).
std::vector<HashParam> hash_params();

// finup2x_params lists the pairs whose algorithm has finup_2x.
std::vector<HashParam> finup2x_params();

// driver_params lists the pairs whose backend is also a whole-message
// driver (module.h's lockstep_hash_driver), for its one algorithm.
std::vector<HashParam> driver_params();

// mac_driver_params lists the pairs whose backend is also HMAC with
// prepared keys (module.h's lockstep_mac_driver), for its one algorithm.
std::vector<HashParam> mac_driver_params();

// cipher_params lists every (ChaCha variant, backend) pair.
std::vector<CipherParam> cipher_params();
// cipher_driver_params lists the pairs whose backend is a whole-message
// cipher driver (module.h's lockstep_cipher_driver), for its algorithm.
std::vector<CipherParam> cipher_driver_params();

// param_name names a pair as catalog::test_name does, `<alg>_<impl>`:
// ("sha224", "sha256/x86-shani") -> "sha224_x86_shani".
std::string param_name(const catalog::HashAlgorithm& alg, const Backend& backend);
std::string param_name(const catalog::CipherAlgorithm& alg, const Backend& backend);

}  // namespace lockstep::conformance
