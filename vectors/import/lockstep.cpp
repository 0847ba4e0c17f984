// lockstep's own vector files (vector_file.h) as imported cases, so that
// `lockstep vectors` runs a file a user wrote in one of its schemas against
// every backend, as it runs the upstream formats. The loader validates the
// file; this only changes the shape of its tests.
#include <string>

#include "import.h"
#include "vectors/vector_file.h"

namespace lockstep::vectors::import {
namespace {

Expect expect_of(Result r) {
  switch (r) {
    case Result::kValid: return Expect::kMatch;
    case Result::kInvalid: return Expect::kMismatch;
    case Result::kAcceptable: return Expect::kEither;
  }
  return Expect::kMatch;
}

std::string id_of(const TestCommon& t) { return "tcId " + std::to_string(t.tc_id); }

}  // namespace

ImportedFile read_lockstep(std::string_view text, const std::string& name) {
  const VectorFile vf = load_from_string(std::string(text), name);
  ImportedFile f;
  f.name = name;
  f.format = Format::kLockstep;
  f.algorithm = vf.algorithm + ", " + vf.schema;
  // The loader accepts only algorithms of the catalog.
  const std::string alg = catalog_name(vf.algorithm);
  auto add = [&](const TestCommon& t, Body body) {
    f.cases.push_back(Case{id_of(t), alg, "", std::move(body)});
  };
  for (const HashTest& t : vf.hash) add(t, HashCase{t.msg, t.md, expect_of(t.result)});
  for (const HmacTest& t : vf.hmac)
    add(t, MacCase{t.key, t.msg, t.tag, t.tag.size(), expect_of(t.result)});
  for (const ConsolidatedTest& t : vf.consolidated)
    add(t, ConsolidatedCase{t.max_len, t.value, expect_of(t.result)});
  for (const Finup2xTest& t : vf.finup_2x)
    add(t, Finup2xCase{t.prefix, t.data1, t.data2, t.md1, t.md2, expect_of(t.result)});
  for (const ChachaTest& t : vf.chacha)
    add(t, StreamCase{t.key, t.nonce, uint64_t{t.counter} * 64, t.msg, t.ct, expect_of(t.result)});
  for (const HChachaTest& t : vf.hchacha) add(t, HChachaCase{t.key, t.nonce, t.subkey, expect_of(t.result)});
  return f;
}

}  // namespace lockstep::vectors::import
