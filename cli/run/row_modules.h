// matrix.json names the module of each module row: the file the backend
// came from, as conformance_tests described its rows (LOCKSTEP_DESCRIBE's
// "module"), so that a row of a run over several modules, or over a tree
// before and after a series, says which shared object it judged.
#pragma once

#include <nlohmann/json.hpp>

namespace lockstep::cli {

// name_row_modules adds "module" to each row of `matrix` (Matrix::to_json)
// whose backend `description` (the environment's describe.json) gives a
// module file; lockstep's own rows get none.
void name_row_modules(nlohmann::json& matrix, const nlohmann::json& description);

}  // namespace lockstep::cli
