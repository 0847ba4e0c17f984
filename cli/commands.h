// The subcommands of `lockstep`, one file each.
#pragma once

#include <string>
#include <vector>

namespace lockstep::cli {

// A call a module row makes with no run-time check of the features it
// needs (run/unchecked_call.h says what run makes of one).
struct UncheckedCall {
  std::string backend;      // "sha512/u-boot:ce-glue"
  std::string caller;       // "arch/arm/cpu/armv8/sha512_ce_glue.c"
  std::string function;     // "sha512_armv8_ce_process"
  std::string needs;        // lockstep's feature names: "sha512"
  std::string selected_by;  // "CONFIG_ARMV8_CE_SHA512"
};

struct HashOptions {
  std::string alg = "sha256";
  std::string backend;  // empty: the default one
  std::vector<std::string> files;
};
int cmd_hash(const HashOptions& o);

int cmd_list(bool json);

struct RunOptions {
  std::string json_out;  // default: <out>/matrix.json
  std::string out;       // logs and reports; default: <build>/run
  std::string junit_out;  // JUnit XML; empty: none
  std::string ktap_out;   // KTAP v1; empty: none
  std::string expect;     // a manifest of cells that must PASS here
  std::string build;      // another build's suites (its conformance/, fuzz/, emulation/); empty: this one's
  std::vector<std::string> backends;  // globs over backend names; empty: all
  bool backends_given = true;         // the user's: one that matches nothing is an error
  std::vector<std::string> families;  // sha256, sha512, chacha; empty: all
  std::vector<std::string> envs;      // environment ids or globs; empty: all
  std::vector<std::string> checks;    // check_names(); empty: all
  int jobs = 0;                       // parallel suite processes; 0: one per core
  bool list_envs = false;
  bool verbose = false;
  // What `tree` could not build, as rows of the reports: a SKIP with the
  // compiler's message, a FAIL where a series broke a module that built.
  struct NotBuilt {
    std::string backend, why;
    bool broken_by_series = false;
  };
  std::vector<NotBuilt> not_built;
  // Module backends whose code is the same in every CPU model (a tree's
  // one-function rows): placed as lockstep's own rows are
  // (row_placement.h), in the lowest model of an emulator with their needs.
  std::vector<std::string> same_code_everywhere;
  // Module rows whose code calls a function with needs and no run-time
  // check (a U-Boot glue): a SIGILL of theirs where the model lacks those
  // needs is explained as the glue's Synchronous Abort (unchecked_call.h).
  std::vector<UncheckedCall> unchecked_calls;
};
int cmd_run(const RunOptions& o);
// Where cmd_run writes its matrix as JSON.
std::string matrix_json_path(const RunOptions& o);

// `lockstep tree DIR`: build what the recipes recognise in DIR, then run
// the matrix on it (on its backends alone unless run.backends says).
struct TreeOptions {
  std::string dir;
  RunOptions run;
  std::vector<std::string> series;  // patches, mails or directories of them
  double bench_time = 0.05;         // per benchmark of the before/after table; 0: none
};
int cmd_tree(const TreeOptions& o, const std::vector<std::string>& modules);

struct FuzzOptions {
  std::string target = "sha256";
  int seconds = 60;
  int jobs = 1;        // > 1: libFuzzer's -fork
  std::string corpus;  // default: corpus/<target> in the source tree
  std::string env = "native";        // an environment id, as `run --list-envs` prints them
  std::vector<std::string> modules;  // --module: each must be of the code env runs
};
int cmd_fuzz(const FuzzOptions& o);

struct BenchOptions {
  std::string filter;     // Google Benchmark regex; empty: everything
  double min_time = 0.1;  // seconds per benchmark
  std::string out;        // default: <build>/bench
  std::string from;       // render this JSON instead of running
  std::vector<std::string> trees;  // Linux or U-Boot trees whose modules run too
  bool analyze = false;  // llvm-mca's cycles per block beside the measured ones (analyze.md)
};
// `modules` are --module's files: routed here, with the trees' modules.
int cmd_bench(const BenchOptions& o, const std::vector<std::string>& modules);

// Vector files (lockstep's own schemas, Wycheproof, ACVP, CAVP, Botan)
// through vectors/import; `ldt_max` bounds ACVP's large-data tests ("1G",
// "0"), `ldt_max_default` the same on each family's default backend (empty:
// no other limit there). A run in which no case ran fails unless
// `allow_empty`.
int cmd_vectors(const std::vector<std::string>& paths, const std::string& backend,
                const std::string& ldt_max, const std::string& ldt_max_default, bool allow_empty);

}  // namespace lockstep::cli
