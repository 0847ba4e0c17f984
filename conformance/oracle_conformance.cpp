// The differential check: each backend against every oracle of this build.
#include <string>
#include <vector>

#include "hash_conformance.h"
#include "oracle/oracle.h"
#include "rounds.h"

namespace lockstep::conformance {
namespace {

std::vector<oracle::Source> available_sources() {
  std::vector<oracle::Source> out;
  for (const oracle::Source s : oracle::kAllSources)
    if (oracle::available(s)) out.push_back(s);
  return out;
}

}  // namespace

// Test that the backend agrees with every oracle this build has (Crypto++
// in portable and SIMD mode, OpenSSL) on random messages of every length
// 0..2000, and on HMACs of random keys and messages. A disagreement is
// reported as a vote (who agrees with whom), so that it is clear at once
// whether the backend or an oracle is wrong.
TEST_P(HashConformance, MatchesOracle) {
  if (!oracle_for(alg())) GTEST_SKIP() << "this build has no oracle for " << alg().name;
  const std::vector<oracle::Source> sources = available_sources();
  const std::string me(backend()->name);
  int reported = 0;

  for (size_t len = 0; len <= 2000 && reported < 5; ++len) {
    const Bytes msg = rng().bytes(len);
    const Bytes got = digest(msg);
    bool agree = true;
    for (const oracle::Source s : sources)
      agree = agree && oracle::digest(alg().name, s, msg) == got;
    if (agree) continue;
    std::vector<oracle::Opinion> opinions = oracle::digest_opinions(alg().name, msg);
    opinions.push_back({me, got});
    if (generic() != backend())
      opinions.push_back({std::string(generic()->name), generic_digest(msg)});
    ADD_FAILURE() << label() << ": digest of len=" << len << " (msg " << hex(msg, 32)
                  << "): " << oracle::tally(opinions).to_string();
    ++reported;
  }

  for (int round = 0; round < rounds(300, 100) && reported < 5; ++round) {
    const Bytes key = rng().bytes(rng().length(300));
    const Bytes msg = rng().bytes(rng().length(2000));
    const Bytes got = hmac(key, msg);
    bool agree = true;
    for (const oracle::Source s : sources)
      agree = agree && oracle::hmac(alg().name, s, key, msg) == got;
    if (agree) continue;
    std::vector<oracle::Opinion> opinions = oracle::hmac_opinions(alg().name, key, msg);
    opinions.push_back({me, got});
    if (generic() != backend()) {
      Bytes g(digest_size());
      alg().hmac(key.data(), key.size(), msg.data(), msg.size(), g.data(), generic());
      opinions.push_back({std::string(generic()->name), g});
    }
    ADD_FAILURE() << label() << ": HMAC round=" << round << " key_len=" << key.size()
                  << " msg_len=" << msg.size() << ": " << oracle::tally(opinions).to_string();
    ++reported;
  }
}

}  // namespace lockstep::conformance
