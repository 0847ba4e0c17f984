// fuzz_<family>: every algorithm of one catalog family, every backend,
// against the oracle, through the shared decoder. CMake builds it once per
// family (LOCKSTEP_FUZZ_FAMILY): fuzz_sha256 covers SHA-256, SHA-224, their
// HMACs and finup_2x; fuzz_sha512 SHA-512, SHA-384, SHA-512/224 and
// SHA-512/256 and their HMACs; fuzz_chacha ChaCha20, ChaCha12 and XChaCha20,
// with counters near the 2^32 wrap, whole-block calls, offsets and
// overlapping buffers. The family's algorithms come from
// the catalog in its order, so a corpus decodes to the same programs for as
// long as the family's list stays the same.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <vector>

#include "catalog.h"
#include "cipher_check.h"
#include "decoder.h"
#include "hash_check.h"
#include "progress.h"
#include "run_support.h"

#ifndef LOCKSTEP_FUZZ_FAMILY
#error "LOCKSTEP_FUZZ_FAMILY names the family this harness fuzzes"
#endif

namespace {

using namespace lockstep;

struct Harness {
  std::vector<std::string_view> algorithms;
  std::vector<size_t> nonce_sizes;  // ciphers only
  bool hash = false;
  fuzz::HashChoices hash_choices;
  fuzz::CipherChoices cipher_choices;
};

Harness make_harness() {
  const catalog::Family* family = catalog::find_family(LOCKSTEP_FUZZ_FAMILY);
  if (family == nullptr || (family->hashes.empty() == family->ciphers.empty())) {
    std::fprintf(stderr, "fuzz_%s: not a family of hashes or of ciphers in the catalog\n",
                 LOCKSTEP_FUZZ_FAMILY);
    std::abort();
  }
  Harness h;
  h.hash = !family->hashes.empty();
  bool finup_2x = false;
  size_t block_size = 0;
  for (const catalog::HashAlgorithm* a : family->hashes) {
    h.algorithms.push_back(a->name);
    finup_2x = finup_2x || a->finup_2x != nullptr;
    block_size = a->block_size;
  }
  for (const catalog::CipherAlgorithm* c : family->ciphers) {
    h.algorithms.push_back(c->name);
    h.nonce_sizes.push_back(c->nonce_size);
  }
  h.hash_choices = {h.algorithms, finup_2x, block_size};
  h.cipher_choices = {h.algorithms, h.nonce_sizes};
  return h;
}

}  // namespace

// The backends checked are decided here, once, and printed: every input then
// reaches the same ones, and a report from another machine names them.
// The input named on the command line, if one file is (a crash replayed),
// goes into the reproduce line.
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  std::string_view input;
  for (int i = 1; i < *argc; ++i) {
    const std::string_view arg = (*argv)[i];
    std::error_code ec;
    if (!arg.starts_with('-') && std::filesystem::is_regular_file(std::filesystem::path(arg), ec)) input = arg;
  }
  fuzz::announce_backends("fuzz_" LOCKSTEP_FUZZ_FAMILY, LOCKSTEP_FUZZ_FAMILY, input);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Harness h = make_harness();
  if (h.hash)
    fuzz::check_hash_program(fuzz::decode_hash(data, size, h.hash_choices));
  else
    fuzz::check_cipher_program(fuzz::decode_cipher(data, size, h.cipher_choices));
  fuzz::progress_tick();
  return 0;
}
