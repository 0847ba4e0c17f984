// VectorSet: lockstep's vector files, loaded once per process, indexed by
// the catalog name of their algorithm ("sha256", "hmac-sha256", ...).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "vectors/vector_file.h"

namespace lockstep::conformance {

struct LoadedFile {
  vectors::VectorFile file;
  std::string catalog;  // catalog_name(file.algorithm), "" if it has none
  std::string display;  // the path relative to the data directory
};

struct VectorSet {
  std::filesystem::path dir;
  std::vector<LoadedFile> files;
  // One line per file that failed to load (or a missing directory).
  std::vector<std::string> errors;

  // named returns the files whose algorithm is `catalog_name`.
  std::vector<const LoadedFile*> named(std::string_view catalog_name) const;
};

// vector_set loads every file under vectors::data_dir() on first use.
const VectorSet& vector_set();

// consolidated_value returns the first KernelConsolidated test of a file
// named `catalog_name`, or nullptr; `from` receives that file's display name.
const vectors::ConsolidatedTest* consolidated_value(std::string_view catalog_name,
                                                    std::string* from);

}  // namespace lockstep::conformance
