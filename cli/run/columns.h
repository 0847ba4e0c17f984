// Which matrix column a conformance_tests test feeds, from its suite's name.
#pragma once

#include <string>

namespace lockstep::cli {

// column_of is the column of GoogleTest test `suite`.`name`; "" for suites
// that are not per backend.
std::string column_of(const std::string& suite, const std::string& name);

}  // namespace lockstep::cli
