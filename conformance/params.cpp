#include "params.h"

namespace lockstep::conformance {

std::vector<HashParam> hash_params() {
  std::vector<HashParam> out;
  for (const catalog::HashAlgorithm* alg : catalog::hash_algorithms())
    for (const Backend* b : alg->family->backends())
      if (b->serves(alg->name)) out.push_back({alg, b});
  return out;
}

std::vector<HashParam> finup2x_params() {
  std::vector<HashParam> out;
  for (const HashParam& p : hash_params())
    if (p.alg->finup_2x != nullptr) out.push_back(p);
  return out;
}

std::vector<HashParam> driver_params() {
  std::vector<HashParam> out;
  for (const HashParam& p : hash_params())
    if (p.backend->hash_driver != nullptr) out.push_back(p);
  return out;
}

std::vector<HashParam> mac_driver_params() {
  std::vector<HashParam> out;
  for (const HashParam& p : hash_params())
    if (p.backend->mac_driver != nullptr) out.push_back(p);
  return out;
}

std::vector<CipherParam> cipher_params() {
  std::vector<CipherParam> out;
  for (const catalog::CipherAlgorithm* alg : catalog::cipher_algorithms())
    for (const Backend* b : alg->family->backends())
      if (b->serves(alg->name)) out.push_back({alg, b});
  return out;
}

std::vector<CipherParam> cipher_driver_params() {
  std::vector<CipherParam> out;
  for (const CipherParam& p : cipher_params())
    if (p.backend->cipher_driver != nullptr) out.push_back(p);
  return out;
}

std::string param_name(const catalog::HashAlgorithm& alg, const Backend& backend) {
  return catalog::test_name(alg.name, backend);
}

std::string param_name(const catalog::CipherAlgorithm& alg, const Backend& backend) {
  return catalog::test_name(alg.name, backend);
}

}  // namespace lockstep::conformance
