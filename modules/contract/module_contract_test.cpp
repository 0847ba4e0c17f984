// Test that a module built against ABI version 1 (contract_v1.c) and one
// built against version 2 (contract_v2.c) load side by side, in
// LOCKSTEP_MODULES, each backend with what its own element of its module's
// array says: the version 1 array read with the version 1 element size, the
// fields it lacks at 0 (any overlap, no wiping); the version 2 contracts as
// declared, on the descriptors and through the catalog the checks ask.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "catalog.h"
#include "chacha/chacha.h"
#include "host/loader.h"

namespace lockstep {
namespace {

// The module backend named `name`, as the ChaCha registry has it.
const chacha::ChachaBackend* chacha_backend(std::string_view name) {
  for (const chacha::ChachaBackend* b : chacha::registry())
    if (b->name == name) return b;
  return nullptr;
}

TEST(ModuleContract, BothVersionsLoadEveryBackend) {
  std::vector<std::string> names;
  for (const module::LoadedBackend& b : module::backends()) names.push_back(b.full_name);
  EXPECT_EQ(names, (std::vector<std::string>{"chacha/contract-v1:first", "chacha/contract-v1:second",
                                             "chacha/contract-v2:in-place", "chacha/contract-v2:apart",
                                             "chacha/contract-v2:default"}))
      << "LOCKSTEP_MODULES must name contract_v1 then contract_v2";
}

TEST(ModuleContract, Version1TakesTheVersion1Meaning) {
  const chacha::ChachaBackend* first = chacha_backend("chacha/contract-v1:first");
  const chacha::ChachaBackend* second = chacha_backend("chacha/contract-v1:second");
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  // Each element's own fields: the second's rounds are its own, not bytes
  // of its neighbour read at the wrong stride.
  EXPECT_EQ(first->rounds, 0u);
  EXPECT_EQ(second->rounds, unsigned{LOCKSTEP_ROUNDS_20});
  for (const chacha::ChachaBackend* b : {first, second}) {
    EXPECT_EQ(static_cast<int>(b->counter), LOCKSTEP_COUNTER_WRAP32) << b->name;
    EXPECT_EQ(static_cast<int>(b->overlap), LOCKSTEP_OVERLAP_ANY) << b->name << ": version 1's rule";
    EXPECT_FALSE(b->wipes) << b->name << ": a version 1 module declares no wiping";
  }
}

TEST(ModuleContract, Version2AsDeclared) {
  struct Want {
    std::string_view name;
    chacha::Overlap overlap;
    bool wipes;
  };
  for (const Want& w : {Want{"chacha/contract-v2:in-place", chacha::Overlap::kInPlace, true},
                        Want{"chacha/contract-v2:apart", chacha::Overlap::kNone, false},
                        Want{"chacha/contract-v2:default", chacha::Overlap::kAny, false}}) {
    const chacha::ChachaBackend* b = chacha_backend(w.name);
    ASSERT_NE(b, nullptr) << w.name;
    EXPECT_EQ(static_cast<int>(b->overlap), static_cast<int>(w.overlap)) << w.name;
    EXPECT_EQ(b->wipes, w.wipes) << w.name;
    EXPECT_EQ(b->rounds, 0u) << w.name;
    // What the checks see: the catalog's view of the same declaration.
    for (const catalog::CipherAlgorithm* a : catalog::cipher_algorithms())
      EXPECT_EQ(a->overlap(b), static_cast<lockstep_chacha_overlap>(w.overlap)) << a->name << " " << w.name;
  }
}

TEST(ModuleContract, OwnBackendsAllowAnyOverlapAndWipe) {
  for (const catalog::Family* f : catalog::families()) {
    for (const Backend* b : f->backends()) {
      if (!b->module.empty()) continue;
      EXPECT_TRUE(b->wipes) << b->name;
      for (const catalog::CipherAlgorithm* a : f->ciphers)
        EXPECT_EQ(a->overlap(b), LOCKSTEP_OVERLAP_ANY) << a->name << " " << b->name;
    }
  }
}

}  // namespace
}  // namespace lockstep
