// Module files judged before anything opens them: a FIFO given as
// --module would block the first read for good, and a device (/dev/zero)
// is read as if it were a file. Only regular files (or links to them) are
// modules.
#pragma once

#include <string>
#include <vector>

namespace lockstep::cli {

// check_module_files looks at each of `files` (the --module arguments) and
// each item of LOCKSTEP_MODULES without opening them, prints the first that
// is no regular file, naming it and what it is, and returns 2; 0 when all
// are regular files. A file that does not exist is left to route_modules
// (modules.h), which says so.
int check_module_files(const std::vector<std::string>& files);

}  // namespace lockstep::cli
