// Running imported cases (vectors/import/import.h) against backends through
// the catalog, and the report of one file: per backend, how many cases ran,
// passed, failed and were skipped, the failing test ids, and the skip reasons
// with their tests. It lives with the checks, not in vectors/, so that the
// files and their readers never link the code under test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backend.h"
#include "catalog.h"
#include "vectors/import/import.h"

namespace lockstep::vectors::import {

// ACVP's large-data tests are 1, 2, 4 and 8 GiB; by default only those up
// to 1 GiB run (a few seconds per backend).
inline constexpr uint64_t kDefaultLdtMax = uint64_t{1} << 30;

// size_text writes a byte count in the largest binary unit that divides it
// ("1 GiB", "1536 bytes"), as the --ldt-max limit is shown.
std::string size_text(uint64_t bytes);

struct RunOptions {
  uint64_t ldt_max = kDefaultLdtMax;  // larger LargeHashCases are skipped
  // Each family's default backend (its fastest usable one) runs the
  // large-data tests up to this limit instead, when it is the larger: all
  // of ACVP's 1-8 GiB cases on the fastest path, seconds each, and the
  // 1 GiB ones on the rest.
  uint64_t ldt_max_default = 0;
  const Backend* only = nullptr;      // run on this backend alone (it must be usable)
};

// family_of_case is the catalog family that runs `c` (nullptr for an
// algorithm lockstep lacks).
const catalog::Family* family_of_case(const Case& c);

// skip_reason is why `c` does not run under `o` on any backend: its own
// skip, or a large-data test over both LDT limits. Empty: it runs.
std::string skip_reason(const Case& c, const RunOptions& o);

struct Verdict {
  bool pass = false;
  std::string detail;  // for a failure: what differed
};

// run_case runs a case that has no skip reason on backend `b` of its family.
Verdict run_case(const Case& c, const Backend& b);

struct BackendReport {
  const Backend* backend = nullptr;
  size_t run = 0, passed = 0, failed = 0, skipped = 0;
  std::vector<std::string> failures;  // "<test id> (<algorithm>): <detail>"
  double seconds = 0;
};

struct SkipGroup {
  std::string reason;
  std::vector<std::string> ids;  // the tests skipped for it
};

struct FileReport {
  std::string name;
  Format format = Format::kWycheproof;
  std::string algorithm;
  size_t cases = 0;
  std::vector<SkipGroup> skipped;         // cases run on no backend, by reason
  std::vector<BackendReport> backends;    // one per backend that ran
  std::vector<std::string> unavailable;   // backends this CPU cannot run: "name (needs x y)"
  double seconds = 0;

  size_t skipped_cases() const;
  size_t failed() const;
};

// run_file runs every case of `f` on every usable backend of its family (or
// on o.only alone: cases of other families then do not run and count in
// neither the report's skips nor its backends).
FileReport run_file(const ImportedFile& f, const RunOptions& o);

}  // namespace lockstep::vectors::import
