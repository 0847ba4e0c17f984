// sha256/generic: portable C++ (FIPS 180-4, 6.2), the reference every other
// SHA-256 backend is held to.
#include "sha2/generic_blocks.h"
#include "zeroize.h"
#include "sha256/constants.h"
#include "sha256/sha256.h"

namespace lockstep {
namespace {

// FIPS 180-4, 4.1.2.
struct Sha256Params {
  using Family = sha2::Sha256Family;
  using Word = uint32_t;
  static constexpr int kRounds = 64;
  static constexpr const uint32_t* kK = kSha256K;
  static constexpr int kBigSigma0[3] = {2, 13, 22};
  static constexpr int kBigSigma1[3] = {6, 11, 25};
  static constexpr int kSmallSigma0[3] = {7, 18, 3};
  static constexpr int kSmallSigma1[3] = {17, 19, 10};
};

}  // namespace

// extern: the registry declares it; a header need not.
extern const Sha256Backend kSha256Generic = {
    {"sha256/generic", {}, "portable C++; the reference for the other backends"},
    Wiping<384, sha2::generic_blocks<Sha256Params>>::call,
};

}  // namespace lockstep
