// The subcommands of `lockstep`, one file each.
#pragma once

#include <string>
#include <vector>

namespace lockstep::cli {

struct HashOptions {
  std::string alg = "sha256";
  std::string backend;  // empty: the default one
  std::vector<std::string> files;
};
int cmd_hash(const HashOptions& o);

int cmd_list(bool json);

struct RunOptions {
  std::string json_out;  // default: <build>/lockstep-run.json
  bool verbose = false;
};
int cmd_run(const RunOptions& o);

}  // namespace lockstep::cli
