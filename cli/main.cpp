// lockstep: list backends, hash files with any backend, run the matrix.
// The ./lockstep script builds this and forwards every subcommand but `test`.
//
// Exit status, for every subcommand: 0 success, 1 a check failed or a file
// was wrong, 2 a usage error (an unknown subcommand, option or value, or a
// bad LOCKSTEP_* variable).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "catalog.h"
#include "commands.h"
#include "emulators.h"
#include "env_vars.h"
#include "module_files.h"
#include "modules.h"
#include "run/run_select.h"
#include "seconds_option.h"

namespace lockstep::cli {
namespace {

bool is_directory(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

// The lists of names that help texts and messages show: "a, b, c".
std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Names come from the catalog, so a new family shows up here by itself.
std::vector<std::string> hash_names() {
  std::vector<std::string> names;
  for (const lockstep::catalog::HashAlgorithm* a : lockstep::catalog::hash_algorithms()) names.emplace_back(a->name);
  return names;
}

std::vector<std::string> family_names() {
  std::vector<std::string> names;
  for (const lockstep::catalog::Family* f : lockstep::catalog::families()) names.emplace_back(f->name);
  return names;
}

// `fuzz`'s words as typed: which is the harness and which the corpus is
// judged after parsing, against the harnesses its help names.
struct FuzzArgs {
  FuzzOptions options;
  std::vector<std::string> words;
  std::vector<std::string> harnesses;
};

// `vectors`' options, handed to cmd_vectors one by one.
struct VectorsArgs {
  std::vector<std::string> paths;
  std::string backend, ldt_max, ldt_max_default;
  bool allow_empty = false;
};

// One function per subcommand, each adding it and its options: main stays
// a list of them and the dispatch.
CLI::App* add_list_command(CLI::App& app, bool& json) {
  auto* list = app.add_subcommand("list", "Every backend compiled in, its CPU needs and whether it runs here");
  list->add_flag("--json", json, "Machine-readable output");
  return list;
}

CLI::App* add_hash_command(CLI::App& app, HashOptions& o) {
  const std::vector<std::string> names = hash_names();
  auto* hash = app.add_subcommand("hash", "Hash files like sha256sum, with any backend");
  hash->add_option("--alg", o.alg, "One of: " + joined(names))->check(CLI::IsMember(names));
  hash->add_option("--backend", o.backend, "Backend name, e.g. sha256/x86-shani (default: the selected one)");
  hash->add_option("files", o.files, "Files; - or none reads standard input");
  return hash;
}

// `run` and `tree` take the same options: tree runs the matrix too.
void add_run_options(CLI::App* cmd, RunOptions& o) {
  cmd->add_option("--out", o.out,
                  "Where the logs go, one folder per environment (default: build/default/run; "
                  "two runs at once need two)");
  cmd->add_option("--json", o.json_out, "Where to write the matrix as JSON (default: OUT/matrix.json)");
  cmd->add_option("--junit", o.junit_out, "Also write JUnit XML here (one testcase per cell and per failing test)");
  cmd->add_option("--ktap", o.ktap_out, "Also write KTAP v1 here (the kernel's format, one subtest per environment)");
  cmd->add_option("--expect", o.expect, "A manifest of cells that must PASS on this runner; any of them skipped fails the run");
  cmd->add_option("--build", o.build,
                  "Run the suites of another build of lockstep (a sanitizer or variant build: its "
                  "conformance/, fuzz/ and emulation/ binaries) in the native and in-process environments");
  cmd->add_option("--backend", o.backends, "Only these backends (repeatable; globs such as 'sha256/*')");
  cmd->add_option("--family", o.families, "Only these families (repeatable): " + joined(family_names()));
  cmd->add_option("--env", o.envs, "Only these environments (repeatable; ids as `run --list-envs` prints, globs allowed)");
  cmd->add_option("--check", o.checks, "Only these checks (repeatable): " + joined(check_names()))
      ->check(CLI::IsMember(check_names()));
  cmd->add_option("-j,--jobs", o.jobs, "Suite processes at once (default: one per core)")->check(CLI::Range(1, 256));
  cmd->add_flag("--list-envs", o.list_envs, "Print the environments and whether this host can run them, then exit");
  cmd->add_flag("-v,--verbose", o.verbose, "Show the suites' own output");
}

CLI::App* add_run_command(CLI::App& app, RunOptions& o) {
  auto* run = app.add_subcommand("run", "Run every check against every backend and print the matrix");
  add_run_options(run, o);
  return run;
}

CLI::App* add_tree_command(CLI::App& app, TreeOptions& o) {
  auto* tree = app.add_subcommand("tree", "Build the crypto of a Linux or U-Boot source tree (trees/ recipes) and run the matrix on it");
  tree->add_option("dir", o.dir, "The tree's top directory")->required();
  add_run_options(tree, o.run);
  // One value per --series: `tree --series P DIR` is P and the tree, not
  // two patches.
  auto* series = tree->add_option("--series", o.series,
                                  "Also the tree after this patch series, applied to a copy (repeatable: patches or "
                                  "mails in order, or a directory of *.patch/*.diff/*.mbox/*.eml); both in one "
                                  "matrix, compared")
                     ->allow_extra_args(false)
                     ->take_all();
  // Below a millisecond a timing says nothing: no ratio is made of one.
  tree->add_option("--bench-time", o.bench_time,
                   "With --series: seconds per benchmark of the before/after MB/s table (default 0.05; 0: no table; "
                   "else at least 0.001)")
      ->check(seconds_option(/*zero_allowed=*/true, 60, /*min=*/0.001))
      ->needs(series);
  return tree;
}

CLI::App* add_fuzz_command(CLI::App& app, FuzzArgs& f) {
  f.harnesses = family_names();
  f.harnesses.emplace_back("vectors");
  auto* fuzz = app.add_subcommand("fuzz", "Fuzz a harness (libFuzzer where built, else the replay driver)");
  fuzz->add_option("args", f.words,
                   "[HARNESS] [CORPUS_DIR]: HARNESS is one of " + joined(f.harnesses) + " (default " +
                       f.harnesses.front() + "); "
                   "CORPUS_DIR defaults to fuzz-corpus/<harness> in the build directory (build/default). A lone argument that is not a harness name "
                   "must be an existing directory (the corpus); anything else is an error")
      ->expected(0, 2);
  fuzz->add_option("--seconds", f.options.seconds, "How long to fuzz, in seconds (default 60)")->check(CLI::Range(1, 86400 * 7));
  fuzz->add_option("--jobs", f.options.jobs, "Parallel fuzzing processes (libFuzzer -fork)")->check(CLI::Range(1, 256));
  fuzz->add_option("--env", f.options.env,
                   "Fuzz in this environment of `lockstep run` (ids as `run --list-envs` prints: phe-trap, "
                   "qemu-aarch64-max, ...; default native); under QEMU and the trap emulators with the "
                   "replay driver of the environment's build, with its --module files");
  return fuzz;
}

CLI::App* add_bench_command(CLI::App& app, BenchOptions& o) {
  auto* bench = app.add_subcommand("bench", "Benchmark every backend against OpenSSL and Crypto++: tables and SVG charts");
  bench->add_option("--filter", o.filter, "Only benchmarks matching this regex, e.g. '^hash/sha256/'");
  bench->add_option("--min-time", o.min_time, "Seconds per benchmark (default 0.1)")
      ->check(seconds_option(/*zero_allowed=*/false, 3600));
  bench->add_option("--out", o.out, "Directory for bench.json, bench.md and the SVGs (default: in the build directory)");
  bench->add_option("--from", o.from, "Render this lockstep_bench JSON instead of running")->check(CLI::ExistingFile);
  bench->add_option("--tree", o.trees,
                    "A Linux or U-Boot tree: its crypto for this host, built as `lockstep tree` builds it, "
                    "benchmarked beside lockstep's own (the closest-peer table); repeatable")
      ->allow_extra_args(false);
  bench->add_flag("--analyze", o.analyze,
                  "Predict each backend's cycles per block on Zen 4, Zen 5, Sapphire Rapids and Ice Lake server "
                  "(llvm-mca-19 on its hot loop as built) beside this host's measured ones, in analyze.md; "
                  "runs the analysed backends at 4096 and 16384 B, or renders --from's JSON");
  return bench;
}

CLI::App* add_vectors_command(CLI::App& app, VectorsArgs& o) {
  auto* vectors = app.add_subcommand("vectors", "Run upstream vector files (Wycheproof, ACVP, CAVP, Botan) against every backend");
  vectors->add_option("paths", o.paths, "Files or directories (searched recursively)")->required();
  vectors->add_option("--backend", o.backend, "Only this backend, e.g. sha256/x86-shani");
  vectors->add_flag("--allow-empty", o.allow_empty, "Exit 0 even if no case ran (every case skipped, or no cases)");
  vectors->add_option("--ldt-max", o.ldt_max, "Largest ACVP large-data test to run, in bytes (1G default; 8G for all; also LOCKSTEP_ACVP_LDT_MAX)");
  vectors->add_option("--ldt-max-default", o.ldt_max_default,
                      "The same limit for each family's default (fastest) backend, when larger, e.g. 8G");
  return vectors;
}

// A first word that is no subcommand: CLI11 would only say that a
// subcommand is required, so name the word. 2 for one, else 0.
int unknown_subcommand(CLI::App& app, int argc, char** argv) {
  if (argc <= 1 || argv[1][0] == '-') return 0;
  std::string known;
  bool found = false;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    known += (known.empty() ? "" : ", ") + sub->get_name();
    found = found || sub->get_name() == argv[1];
  }
  if (found) return 0;
  std::fprintf(stderr, "lockstep: unknown subcommand '%s' (known: %s)\nRun with --help for more information.\n",
               argv[1], known.c_str());
  return 2;
}

// The environment and the module files, judged before any command runs.
int check_inputs(const std::vector<std::string>& modules) {
  // Before anything asks impl/cpu for the features: an emulator name that
  // vouches for nothing must not let dispatch pick code that faults.
  if (const int rc = check_emulation_environment(); rc != 0) return rc;
  // Every other LOCKSTEP_* variable, and the module files, before anything
  // runs: a bad one is a usage error here, not a child's failure later.
  if (const int rc = check_lockstep_variables(); rc != 0) return rc;
  return check_module_files(modules);
}

// `fuzz`'s words into a harness and a corpus, then the command.
int dispatch_fuzz(FuzzArgs& f, const std::vector<std::string>& modules) {
  std::vector<std::string>& args = f.words;
  // The harness name is optional: a lone argument that is no harness name
  // is a corpus only if it is an existing directory.
  auto is_harness = [&](const std::string& a) {
    return std::find(f.harnesses.begin(), f.harnesses.end(), a) != f.harnesses.end();
  };
  if (!args.empty() && is_harness(args.front())) {
    f.options.target = args.front();
    args.erase(args.begin());
  } else if (!args.empty() && (args.size() > 1 || !is_directory(args.front()))) {
    std::fprintf(stderr,
                 "lockstep fuzz: unknown harness '%s' (known: %s); "
                 "a corpus must be an existing directory\n",
                 args.front().c_str(), joined(f.harnesses).c_str());
    return 2;
  }
  // A second harness name where the corpus goes is a slip, never a
  // corpus to create (an existing directory of that name still is one).
  if (!args.empty() && is_harness(args.front()) && !is_directory(args.front())) {
    std::fprintf(stderr,
                 "lockstep fuzz: '%s' is a harness name, not a corpus directory; one harness at a time "
                 "(lockstep fuzz %s [CORPUS_DIR])\n",
                 args.front().c_str(), args.front().c_str());
    return 2;
  }
  if (!args.empty()) f.options.corpus = args.front();
  f.options.modules = modules;
  return cmd_fuzz(f.options);
}

}  // namespace
}  // namespace lockstep::cli

int main(int argc, char** argv) {
  using namespace lockstep::cli;
  CLI::App app{"lockstep: differential fuzzing and conformance for CPU-specific crypto code"};
  app.require_subcommand(1);
  // Every subcommand takes --module (fallthrough hands it up to here).
  app.fallthrough();
  std::vector<std::string> modules;
  app.add_option("--module", modules,
                 "A module (include/lockstep/module.h) whose backends every check covers; "
                 "repeatable; arm64 modules go to the qemu-aarch64 runs")
      ->allow_extra_args(false);  // one file per --module: what follows is the command's

  // In the order --help lists them.
  bool json = false;
  HashOptions ho;
  RunOptions ro;
  TreeOptions to;
  FuzzArgs fa;
  BenchOptions bo;
  VectorsArgs va;
  CLI::App* list = add_list_command(app, json);
  CLI::App* hash = add_hash_command(app, ho);
  CLI::App* run = add_run_command(app, ro);
  CLI::App* tree = add_tree_command(app, to);
  CLI::App* fuzz = add_fuzz_command(app, fa);
  CLI::App* bench = add_bench_command(app, bo);
  CLI::App* vectors = add_vectors_command(app, va);

  if (const int rc = unknown_subcommand(app, argc, argv); rc != 0) return rc;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11's message; its own exit codes (105, 106, 109, ...) become 2.
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (const int rc = check_inputs(modules); rc != 0) return rc;
  // Before any registry is asked: registries load LOCKSTEP_MODULES once.
  // Only `run` and `fuzz` (--env) have environments for another
  // architecture's modules; cmd_fuzz checks them against its environment.
  const std::string command = app.get_subcommands().empty() ? "" : app.get_subcommands().front()->get_name();
  // `tree` routes its modules itself, once it has built them.
  if (*tree) return cmd_tree(to, modules);
  // So does `bench`: --tree's modules join --module's.
  if (*bench) return cmd_bench(bo, modules);
  if (const int rc = route_modules(modules, *run || *fuzz ? "" : command); rc != 0) return rc;
  if (*fuzz) return dispatch_fuzz(fa, modules);
  if (*list) return cmd_list(json);
  if (*hash) return cmd_hash(ho);
  if (*run) return cmd_run(ro);
  if (*vectors) return cmd_vectors(va.paths, va.backend, va.ldt_max, va.ldt_max_default, va.allow_empty);
  return 2;
}
