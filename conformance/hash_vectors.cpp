// HashVectors: every vector file of an algorithm, run through every backend
// of its family. Failures name the file and the tcId, as FileTest names the
// path and line; a missing vector set fails instead of passing silently.
#include <algorithm>
#include <string>
#include <vector>

#include "backend_fixture.h"
#include "kernel_rules.h"
#include "vector_set.h"

namespace lockstep::conformance {
namespace {

class HashVectors : public BackendTest {};

INSTANTIATE_TEST_SUITE_P(All, HashVectors, testing::ValuesIn(hash_params()), HashParamName());

// Flags under which an "acceptable" result counts as valid. Hash and MAC
// vectors have none; as in BoringSSL's wycheproof_util.h, an acceptable
// test is valid only when every one of its flags is listed here.
const std::vector<std::string> kAcceptableFlags = {};

bool expects_match(const vectors::TestCommon& t) {
  switch (t.result) {
    case vectors::Result::kValid:
      return true;
    case vectors::Result::kInvalid:
      return false;
    case vectors::Result::kAcceptable:
      return std::all_of(t.flags.begin(), t.flags.end(), [](const std::string& f) {
        return std::find(kAcceptableFlags.begin(), kAcceptableFlags.end(), f) !=
               kAcceptableFlags.end();
      });
  }
  return true;
}

const char* result_name(vectors::Result r) {
  switch (r) {
    case vectors::Result::kValid:
      return "valid";
    case vectors::Result::kInvalid:
      return "invalid";
    case vectors::Result::kAcceptable:
      return "acceptable";
  }
  return "?";
}

// Stop reporting a file after this many failures; the rest would only
// repeat the pattern.
constexpr int kMaxFailuresPerFile = 10;

}  // namespace

// Test every vector of the algorithm's files through the backend: hash
// files (digest == md; invalid ones must not match), finup_2x files through
// finup_2x, the algorithm's HMAC files (tag prefix), and the kernel's
// consolidated values. It fails if no file exists for the algorithm or for
// its HMAC, or, for an algorithm with finup_2x, if no finup_2x vector does.
TEST_P(HashVectors, AllFiles) {
  const VectorSet& set = vector_set();
  const std::string name(alg().name);
  const std::string hmac_name = "hmac-" + name;
  const std::vector<const LoadedFile*> hash_files = set.named(name);
  const std::vector<const LoadedFile*> hmac_files = set.named(hmac_name);
  const size_t ds = digest_size();
  size_t hash_run = 0, hmac_run = 0, finup_run = 0, consolidated_run = 0;

  for (const LoadedFile* f : hash_files) {
    int failures = 0;
    auto where = [&](const vectors::TestCommon& t) {
      return testing::Message() << f->display << " tcId " << t.tc_id << " (" << t.comment << ", "
                                << result_name(t.result) << "): " << label();
    };
    for (const vectors::HashTest& t : f->file.hash) {
      if (failures >= kMaxFailuresPerFile) break;
      ++hash_run;
      const Bytes got = digest(t.msg);
      const bool match = got == t.md;
      if (match != expects_match(t)) {
        ++failures;
        ADD_FAILURE() << where(t) << ": msg_len=" << t.msg.size() << " got " << hex(got)
                      << (match ? ", which an invalid test must not give" : ", want " + hex(t.md));
      }
    }
    for (const vectors::Finup2xTest& t : f->file.finup_2x) {
      if (failures >= kMaxFailuresPerFile) break;
      if (alg().finup_2x == nullptr) {
        ++failures;
        ADD_FAILURE() << where(t) << ": finup_2x vector for an algorithm without finup_2x";
        continue;
      }
      if (t.data1.size() != t.data2.size()) {
        ++failures;
        ADD_FAILURE() << where(t) << ": data1 and data2 differ in length";
        continue;
      }
      ++finup_run;
      RawCtx ctx(alg().ctx_size, alg().ctx_align);
      alg().init(ctx.get(), backend());
      alg().update(ctx.get(), t.prefix.data(), t.prefix.size());
      Bytes out1(ds), out2(ds);
      alg().finup_2x(ctx.get(), t.data1.data(), t.data2.data(), t.data1.size(), out1.data(),
                     out2.data(), backend());
      const bool match = out1 == t.md1 && out2 == t.md2;
      if (match != expects_match(t)) {
        ++failures;
        ADD_FAILURE() << where(t) << ": prefix_len=" << t.prefix.size()
                      << " data_len=" << t.data1.size() << " got " << hex(out1) << " " << hex(out2)
                      << ", want " << hex(t.md1) << " " << hex(t.md2);
      }
    }
    for (const vectors::ConsolidatedTest& t : f->file.consolidated) {
      ++consolidated_run;
      const Consolidated got = consolidated_hash(alg(), backend(), t.max_len);
      EXPECT_EQ(got.value == t.value, expects_match(t))
          << where(t) << ": consolidated hash, max_len=" << t.max_len << " got " << hex(got.value)
          << ", want " << hex(t.value);
    }
  }

  for (const LoadedFile* f : hmac_files) {
    int failures = 0;
    auto where = [&](const vectors::TestCommon& t) {
      return testing::Message() << f->display << " tcId " << t.tc_id << " (" << t.comment << ", "
                                << result_name(t.result) << "): " << label();
    };
    for (const vectors::HmacTest& t : f->file.hmac) {
      if (failures >= kMaxFailuresPerFile) break;
      ++hmac_run;
      if (t.tag.empty() || t.tag.size() > ds) {
        ++failures;
        ADD_FAILURE() << where(t) << ": tag of " << t.tag.size() << " bytes for a " << ds
                      << "-byte MAC";
        continue;
      }
      const Bytes got = hmac(t.key, t.msg);
      const bool match = std::equal(t.tag.begin(), t.tag.end(), got.begin());
      if (match != expects_match(t)) {
        ++failures;
        ADD_FAILURE() << where(t) << ": key_len=" << t.key.size() << " msg_len=" << t.msg.size()
                      << " tag_len=" << t.tag.size() << " got " << hex(got)
                      << (match ? ", which an invalid test must not give" : ", want " + hex(t.tag));
      }
    }
    for (const vectors::ConsolidatedTest& t : f->file.consolidated) {
      ++consolidated_run;
      const Consolidated got = consolidated_hmac(alg(), backend(), t.max_len);
      EXPECT_EQ(got.value == t.value, expects_match(t))
          << where(t) << ": consolidated HMAC, max_len=" << t.max_len << " got " << hex(got.value)
          << ", want " << hex(t.value);
    }
  }

  EXPECT_FALSE(hash_files.empty()) << "no vector file for " << name << " in " << set.dir.string();
  EXPECT_FALSE(hmac_files.empty())
      << "no vector file for " << hmac_name << " in " << set.dir.string();
  if (alg().finup_2x != nullptr) {
    EXPECT_GT(finup_run, 0u) << "no finup_2x vector for " << name << " in " << set.dir.string();
  }
  RecordProperty("hash_vectors", static_cast<int>(hash_run));
  RecordProperty("hmac_vectors", static_cast<int>(hmac_run));
  RecordProperty("finup2x_vectors", static_cast<int>(finup_run));
  RecordProperty("consolidated_vectors", static_cast<int>(consolidated_run));
}

// Test that every vector file under the data directory loads: a file the
// loader rejects would otherwise just be missing from HashVectors.
TEST(VectorFiles, LoadCleanly) {
  const VectorSet& set = vector_set();
  for (const std::string& e : set.errors) ADD_FAILURE() << e;
  EXPECT_FALSE(set.files.empty()) << "no vector file in " << set.dir.string();
}

}  // namespace lockstep::conformance
