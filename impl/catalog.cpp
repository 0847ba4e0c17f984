#include "catalog.h"

#include <vector>

// families(): generated from LOCKSTEP_FAMILIES in impl/CMakeLists.txt, the
// one list of families (catalog_families.cpp.in).
#include "catalog_families.inc"

namespace lockstep::catalog {
namespace {

template <class A, auto Member>
std::vector<const A*> flatten() {
  std::vector<const A*> all;
  for (const Family* f : families())
    for (const A* a : f->*Member) all.push_back(a);
  return all;
}

}  // namespace

std::span<const HashAlgorithm* const> hash_algorithms() {
  static const std::vector<const HashAlgorithm*> all = flatten<HashAlgorithm, &Family::hashes>();
  return all;
}

std::span<const CipherAlgorithm* const> cipher_algorithms() {
  static const std::vector<const CipherAlgorithm*> all =
      flatten<CipherAlgorithm, &Family::ciphers>();
  return all;
}

std::span<const SubkeyAlgorithm* const> subkey_algorithms() {
  static const std::vector<const SubkeyAlgorithm*> all =
      flatten<SubkeyAlgorithm, &Family::subkeys>();
  return all;
}

const Family* find_family(std::string_view name) {
  for (const Family* f : families())
    if (f->name == name) return f;
  return nullptr;
}

const HashAlgorithm* find_hash(std::string_view name) {
  for (const HashAlgorithm* h : hash_algorithms())
    if (h->name == name) return h;
  return nullptr;
}

const CipherAlgorithm* find_cipher(std::string_view name) {
  for (const CipherAlgorithm* c : cipher_algorithms())
    if (c->name == name) return c;
  return nullptr;
}

const SubkeyAlgorithm* find_subkey(std::string_view name) {
  for (const SubkeyAlgorithm* k : subkey_algorithms())
    if (k->name == name) return k;
  return nullptr;
}

const Family* find_algorithm_family(std::string_view name) {
  if (const HashAlgorithm* h = find_hash(name)) return h->family;
  if (const CipherAlgorithm* c = find_cipher(name)) return c->family;
  if (const SubkeyAlgorithm* k = find_subkey(name)) return k->family;
  return nullptr;
}

const Backend* find_backend(std::string_view name) {
  for (const Family* f : families())
    for (const Backend* b : f->backends())
      if (b->name == name) return b;
  return nullptr;
}

const Family* family_of(const Backend* b) {
  for (const Family* f : families())
    for (const Backend* x : f->backends())
      if (x == b) return f;
  return nullptr;
}

std::string test_name(std::string_view algorithm, const Backend& b) {
  const std::string_view impl = b.name.substr(b.name.find('/') + 1);
  std::string out(algorithm);
  out += '_';
  out += impl;
  for (char& c : out) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!ok) c = '_';
  }
  return out;
}

}  // namespace lockstep::catalog
