// Third-party anchors: OpenSSL's EVP interface and Crypto++ (its SIMD paths
// as it detects them) for SHA-256, SHA-512 and ChaCha20. They
// are measured the way an application would call them: one digest or one
// message per iteration, with the context (and key) set up once.
#include <benchmark/benchmark.h>
#include <cryptopp/chacha.h>
#include <cryptopp/cryptlib.h>
#include <cryptopp/sha.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <algorithm>
#include <memory>
#include <string>

#include "bench.h"

namespace lockstep::bench {
namespace {

struct MdFree {
  void operator()(EVP_MD* m) const { EVP_MD_free(m); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
struct CipherFree {
  void operator()(EVP_CIPHER* c) const { EVP_CIPHER_free(c); }
};
struct CipherCtxFree {
  void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};

std::string name(std::string_view alg, std::string_view lib, size_t len) {
  return "anchor/" + std::string(alg) + "/" + std::string(lib) + "/" + std::to_string(len);
}

void set_bytes(benchmark::State& state, size_t len) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(len));
}

// EVP_Digest's steps on one reused context. The digest is fetched once:
// an implicit fetch in every EVP_DigestInit_ex would be measured too.
void openssl_digest(benchmark::State& state, const char* md_name, size_t len) {
  std::unique_ptr<EVP_MD, MdFree> md(EVP_MD_fetch(nullptr, md_name, nullptr));
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  if (!md || !ctx) {
    state.SkipWithError("OpenSSL: EVP_MD_fetch or EVP_MD_CTX_new failed");
    return;
  }
  const std::vector<uint8_t> msg = bytes(len, 1);
  uint8_t out[EVP_MAX_MD_SIZE];
  unsigned out_len = 0;
  for (auto _ : state) {
    if (EVP_DigestInit_ex2(ctx.get(), md.get(), nullptr) != 1 ||
        EVP_DigestUpdate(ctx.get(), msg.data(), len) != 1 ||
        EVP_DigestFinal_ex(ctx.get(), out, &out_len) != 1) {
      state.SkipWithError("OpenSSL: EVP_Digest* failed");
      break;
    }
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  set_bytes(state, len);
}

// EVP_chacha20 on one reused context, keyed once; each iteration is one
// message: the IV (counter 0 and the nonce) set anew, then one
// EVP_EncryptUpdate, as backends.cpp does with init and crypt.
void openssl_chacha20(benchmark::State& state, size_t len) {
  std::unique_ptr<EVP_CIPHER, CipherFree> cipher(EVP_CIPHER_fetch(nullptr, "ChaCha20", nullptr));
  std::unique_ptr<EVP_CIPHER_CTX, CipherCtxFree> ctx(EVP_CIPHER_CTX_new());
  const std::vector<uint8_t> key = bytes(32, 2), src = bytes(len, 4);
  std::vector<uint8_t> iv = bytes(16, 3);
  std::fill(iv.begin(), iv.begin() + 4, 0);  // OpenSSL's IV is the counter, then the nonce
  if (!cipher || !ctx ||
      EVP_EncryptInit_ex2(ctx.get(), cipher.get(), key.data(), iv.data(), nullptr) != 1) {
    state.SkipWithError("OpenSSL: EVP_chacha20 setup failed");
    return;
  }
  std::vector<uint8_t> dst(len);
  int out_len = 0;
  for (auto _ : state) {
    if (EVP_EncryptInit_ex2(ctx.get(), nullptr, nullptr, iv.data(), nullptr) != 1 ||
        EVP_EncryptUpdate(ctx.get(), dst.data(), &out_len, src.data(), static_cast<int>(len)) != 1) {
      state.SkipWithError("OpenSSL: EVP_EncryptInit_ex2/EVP_EncryptUpdate failed");
      break;
    }
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  set_bytes(state, len);
}

// Crypto++ as detected: CalculateDigest is Update + Final on a reused
// object; ChaChaTLS is keyed once and resynchronised per message.
template <class H>
void cryptopp_digest(benchmark::State& state, size_t len) {
  H h;
  state.SetLabel(h.AlgorithmProvider());
  const std::vector<uint8_t> msg = bytes(len, 1);
  uint8_t out[H::DIGESTSIZE];
  for (auto _ : state) {
    h.CalculateDigest(out, msg.data(), len);
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  set_bytes(state, len);
}

void cryptopp_chacha20(benchmark::State& state, size_t len) {
  const std::vector<uint8_t> key = bytes(32, 2), nonce = bytes(12, 3), src = bytes(len, 4);
  std::vector<uint8_t> dst(len);
  CryptoPP::ChaChaTLS::Encryption c;
  c.SetKeyWithIV(key.data(), key.size(), nonce.data(), nonce.size());
  // Through the base class: ChaChaTLS's own name for it is ambiguous.
  state.SetLabel(static_cast<const CryptoPP::SymmetricCipher&>(c).AlgorithmProvider());
  for (auto _ : state) {
    c.Resynchronize(nonce.data(), static_cast<int>(nonce.size()));
    c.ProcessData(dst.data(), src.data(), len);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  set_bytes(state, len);
}

}  // namespace

void register_anchors(std::string_view alg, size_t len) {
  if (alg == "sha256") {
    benchmark::RegisterBenchmark(name(alg, "openssl", len).c_str(),
                                 [len](benchmark::State& s) { openssl_digest(s, "SHA2-256", len); });
    benchmark::RegisterBenchmark(name(alg, "cryptopp", len).c_str(),
                                 [len](benchmark::State& s) { cryptopp_digest<CryptoPP::SHA256>(s, len); });
  } else if (alg == "sha512") {
    benchmark::RegisterBenchmark(name(alg, "openssl", len).c_str(),
                                 [len](benchmark::State& s) { openssl_digest(s, "SHA2-512", len); });
    benchmark::RegisterBenchmark(name(alg, "cryptopp", len).c_str(),
                                 [len](benchmark::State& s) { cryptopp_digest<CryptoPP::SHA512>(s, len); });
  } else if (alg == "chacha20") {
    benchmark::RegisterBenchmark(name(alg, "openssl", len).c_str(),
                                 [len](benchmark::State& s) { openssl_chacha20(s, len); });
    benchmark::RegisterBenchmark(name(alg, "cryptopp", len).c_str(),
                                 [len](benchmark::State& s) { cryptopp_chacha20(s, len); });
  }
}

std::string openssl_version() { return OpenSSL_version(OPENSSL_VERSION); }

std::string cryptopp_version() {
  // LibraryVersion() is the linked library's, 870 for 8.7.0.
  const int v = CryptoPP::LibraryVersion();
  return std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." + std::to_string(v % 10);
}

}  // namespace lockstep::bench
