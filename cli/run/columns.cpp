#include "run/columns.h"

namespace lockstep::cli {

std::string column_of(const std::string& suite, const std::string& name) {
  if (suite.ends_with("HashVectors")) return "vectors";
  if (suite.ends_with("HashAbi") || suite.ends_with("CipherAbi")) return "abi";
  if (suite.ends_with("HashIsa") || suite.ends_with("CipherIsa")) return "isa";
  if (suite.ends_with("HashResidue") || suite.ends_with("CipherResidue")) return "residue";
  if (suite.ends_with("HashCt") || suite.ends_with("CipherCt")) return "ct";
  if (suite.ends_with("HashDispatch") || suite.ends_with("CipherDispatch")) return "dispatch";
  if (suite.ends_with("HugeByteCount") || suite.ends_with("HugeCall") || suite.ends_with("HugeCipherCall"))
    return "huge";
  if (suite.ends_with("ChachaConformance")) return name.starts_with("Vectors/") ? "vectors" : "conformance";
  if (suite.ends_with("HashKunit") || suite.ends_with("CipherKunit")) return "kunit";
  if (suite.ends_with("HashConformance") || suite.ends_with("Finup2xConformance") ||
      suite.ends_with("CipherDriverConformance") || suite.ends_with("MacDriverConformance"))
    return "conformance";
  return "";
}

}  // namespace lockstep::cli
