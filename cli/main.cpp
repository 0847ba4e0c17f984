// lockstep: list backends, hash files with any backend, run the matrix.
// The ./lockstep script builds this and forwards every subcommand but `test`.
#include <CLI/CLI.hpp>

#include "commands.h"

int main(int argc, char** argv) {
  using namespace lockstep::cli;
  CLI::App app{"lockstep: differential fuzzing and conformance for CPU-specific crypto code"};
  app.require_subcommand(1);

  bool json = false;
  auto* list = app.add_subcommand("list", "Every backend compiled in, its CPU needs and whether it runs here");
  list->add_flag("--json", json, "Machine-readable output");

  HashOptions ho;
  auto* hash = app.add_subcommand("hash", "Hash files like sha256sum, with any backend");
  hash->add_option("--alg", ho.alg, "sha256 or sha224")->check(CLI::IsMember({"sha256", "sha224"}));
  hash->add_option("--backend", ho.backend, "Backend name, e.g. sha256/x86-shani (default: the selected one)");
  hash->add_option("files", ho.files, "Files; - or none reads standard input");

  RunOptions ro;
  auto* run = app.add_subcommand("run", "Run every check against every backend and print the matrix");
  run->add_option("--json", ro.json_out, "Where to write the matrix as JSON (default: in the build directory)");
  run->add_flag("-v,--verbose", ro.verbose, "Show the suites' own output");

  FuzzOptions fo;
  auto* fuzz = app.add_subcommand("fuzz", "Fuzz a harness (libFuzzer where built, else the replay driver)");
  fuzz->add_option("target", fo.target, "Harness: sha256")->check(CLI::IsMember({"sha256"}));
  fuzz->add_option("corpus", fo.corpus, "Corpus directory (default: corpus/<target>)");
  fuzz->add_option("--seconds", fo.seconds, "How long to fuzz")->check(CLI::Range(1, 86400 * 7));
  fuzz->add_option("--jobs", fo.jobs, "Parallel fuzzing processes (libFuzzer -fork)")->check(CLI::Range(1, 256));

  CLI11_PARSE(app, argc, argv);
  if (*fuzz) return cmd_fuzz(fo);
  if (*list) return cmd_list(json);
  if (*hash) return cmd_hash(ho);
  if (*run) return cmd_run(ro);
  return 2;
}
