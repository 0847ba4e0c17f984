// What one `lockstep run` covers: the --env, --family, --backend and --check
// filters, GoogleTest-style filters, and the --expect manifest of cells that
// must pass on this runner.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace lockstep::cli {

// glob_match: shell globbing (fnmatch), where '*' also matches '/'.
bool glob_match(const std::string& pattern, const std::string& text);

// gtest_filter_match applies a --gtest_filter value ("A*:B-C*") to a full
// test name ("Suite.Name"), as GoogleTest does.
bool gtest_filter_match(const std::string& filter, const std::string& full_name);

// The columns of the matrix, in order.
const std::vector<std::string>& check_names();

struct Selection {
  std::vector<std::string> envs;      // ids or globs; empty: all
  std::vector<std::string> families;  // exact; empty: all
  std::vector<std::string> backends;  // globs; empty: all
  std::vector<std::string> checks;    // exact; empty: all

  bool env(const std::string& id) const;
  bool backend(const std::string& name) const;
  bool check(const std::string& column) const;
  // Narrowed to some backends: the checks that are not per backend
  // (dispatch, CPU detection) are then left out.
  bool per_backend_only() const { return !families.empty() || !backends.empty(); }
};

// One line of an --expect manifest: cells (environment, backend, check,
// each a glob) that must PASS here.
struct Expectation {
  std::string where;  // "FILE:LINE", for messages
  std::string env, backend, check;
  int matched = 0;  // cells it matched in this run
};

// read_expectations parses a manifest: one "ENV BACKEND CHECK" per line,
// '#' comments and blank lines ignored. On a malformed file it returns
// nothing and sets `error` to a message naming the file, line and field.
std::optional<std::vector<Expectation>> read_expectations(const std::string& path,
                                                          const std::vector<std::string>& env_ids,
                                                          std::string& error);

}  // namespace lockstep::cli
