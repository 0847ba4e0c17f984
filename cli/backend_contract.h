// What a backend declares to the checks (module.h's fields for a module's;
// lockstep's own declare the strictest), in JSON and in words, for
// `lockstep list`.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "catalog.h"

namespace lockstep::cli {

// backend_contract is `b`'s declarations: whether it wipes what it
// handled, the algorithms it serves, the most bytes one call hands its code,
// the backend whose driver runs the same code, and per family what only it
// has (finup_2x's interleaving; ChaCha's counter, overlap and rounds).
nlohmann::json backend_contract(const catalog::Family& family, const Backend& b);

// contract_text says the same in one line.
std::string contract_text(const nlohmann::json& contract);

}  // namespace lockstep::cli
