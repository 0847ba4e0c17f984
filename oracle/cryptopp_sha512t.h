// SHA-512/224 and SHA-512/256 for the Crypto++ adapter (cryptopp.cpp only).
// Crypto++ 8.7 has no SHA-512/t, but its SHA-512 compression function is
// public: SHA-512/t is that function from another IV (FIPS 180-4, 5.3.6),
// cut to t bits. The IVs here are typed in from FIPS 180-4 independently of
// lockstep's impl, so the oracle stays a second implementation.
#pragma once

#include <cryptopp/iterhash.h>
#include <cryptopp/sha.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace lockstep::oracle::detail {

// Sha512tState is Crypto++'s iterated SHA-512 started from P::kIv, with the
// full 64-byte state as its digest.
template <class P>
class Sha512tState
    : public CryptoPP::IteratedHashWithStaticTransform<CryptoPP::word64, CryptoPP::BigEndian, 128, 64,
                                                       Sha512tState<P>, 64, true> {
 public:
  static void InitState(CryptoPP::word64* state) { std::copy(P::kIv, P::kIv + 8, state); }
  static void Transform(CryptoPP::word64* state, const CryptoPP::word64* data) {
    CryptoPP::SHA512::Transform(state, data);
  }
  static const char* StaticAlgorithmName() { return P::kName; }
};

// Sha512t cuts Sha512tState's digest to P::kSize bytes. It is a wrapper, not
// a DIGESTSIZE of 28 on Sha512tState: Crypto++ 8.7's TruncatedFinal byte-swaps
// only DigestSize() / 8 whole 64-bit words, so the last four bytes of a
// 28-byte digest would come out in host order.
template <class P>
class Sha512t : public CryptoPP::HashTransformation {
 public:
  static constexpr unsigned int DIGESTSIZE = P::kSize;
  static constexpr unsigned int BLOCKSIZE = 128;
  static const char* StaticAlgorithmName() { return P::kName; }

  std::string AlgorithmName() const override { return P::kName; }
  std::string AlgorithmProvider() const override { return full_.AlgorithmProvider(); }
  unsigned int DigestSize() const override { return DIGESTSIZE; }
  unsigned int BlockSize() const override { return BLOCKSIZE; }
  unsigned int OptimalBlockSize() const override { return BLOCKSIZE; }
  void Update(const CryptoPP::byte* input, size_t length) override { full_.Update(input, length); }
  void Restart() override { full_.Restart(); }
  void TruncatedFinal(CryptoPP::byte* digest, size_t size) override {
    ThrowIfInvalidTruncatedSize(size);
    CryptoPP::byte full[64];
    full_.Final(full);  // restarts full_
    if (size) std::memcpy(digest, full, size);
  }

 private:
  Sha512tState<P> full_;
};

struct Sha512_224Params {
  static constexpr const char* kName = "SHA-512/224";
  static constexpr unsigned int kSize = 28;
  static constexpr CryptoPP::word64 kIv[8] = {
      0x8c3d37c819544da2, 0x73e1996689dcd4d6, 0x1dfab7ae32ff9c82, 0x679dd514582f9fcf,
      0x0f6d2b697bd44da8, 0x77e36f7304c48942, 0x3f9d85a86a1d36c8, 0x1112e6ad91d692a1};
};

struct Sha512_256Params {
  static constexpr const char* kName = "SHA-512/256";
  static constexpr unsigned int kSize = 32;
  static constexpr CryptoPP::word64 kIv[8] = {
      0x22312194fc2bf72c, 0x9f555fa3c84c64c2, 0x2393b86b6f53b151, 0x963877195940eabd,
      0x96283ee2a88effe3, 0xbe5e1e2553863992, 0x2b0199fc2c85b8aa, 0x0eb72ddc81c52ca2};
};

using CryptoppSha512_224 = Sha512t<Sha512_224Params>;
using CryptoppSha512_256 = Sha512t<Sha512_256Params>;

}  // namespace lockstep::oracle::detail
