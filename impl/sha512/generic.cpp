// sha512/generic: portable C++ (FIPS 180-4, 6.4), the reference every other
// SHA-512 backend is held to.
#include "sha2/generic_blocks.h"
#include "zeroize.h"
#include "sha512/constants.h"
#include "sha512/sha512.h"

namespace lockstep {
namespace {

// FIPS 180-4, 4.1.3.
struct Sha512Params {
  using Family = sha2::Sha512Family;
  using Word = uint64_t;
  static constexpr int kRounds = 80;
  static constexpr const uint64_t* kK = kSha512K;
  static constexpr int kBigSigma0[3] = {28, 34, 39};
  static constexpr int kBigSigma1[3] = {14, 18, 41};
  static constexpr int kSmallSigma0[3] = {1, 8, 7};
  static constexpr int kSmallSigma1[3] = {19, 61, 6};
};

}  // namespace

// extern: the registry declares it; a header need not.
extern const Sha512Backend kSha512Generic = {
    {"sha512/generic", {}, "portable C++; the reference for the other backends"},
    Wiping<768, sha2::generic_blocks<Sha512Params>>::call,
};

}  // namespace lockstep
