// Where a command will write, judged before it starts: a report file's
// place must be writable and not a directory, a directory (logs, results,
// a corpus) must be one or be creatable. A run of many minutes must not end
// in "cannot write", nor abort on a filesystem exception halfway.
#pragma once

#include <string>

#include "commands.h"

namespace lockstep::cli {

// Why `path` cannot be written as a file, e.g. "its directory /x does not
// exist"; "" when it can. The file need not exist.
std::string output_file_problem(const std::string& path);

// Why `path` cannot be (or become, with its missing parents) a directory
// to write in; "" when it can. Nothing is created.
std::string output_dir_problem(const std::string& path);

// check_run_outputs judges every place `lockstep run` (or tree, `who`)
// writes to: --out, --json (or OUT/matrix.json), --junit, --ktap. It
// prints each problem, naming the option and the path, and returns 2; 0
// when all are writable.
int check_run_outputs(const RunOptions& o, const char* who);

}  // namespace lockstep::cli
