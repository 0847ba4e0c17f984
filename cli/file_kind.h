// What a path names, for messages about an input that is not what a
// command takes: "a FIFO", "a directory", "a dangling or looping symbolic
// link", "no such file or directory". One wording for every command.
#pragma once

#include <sys/types.h>

#include <string>

namespace lockstep::cli {

// file_kind: what `mode` is, "a regular file" included.
const char* file_kind(mode_t mode);

// path_kind: what `path` is, following symbolic links; says so when there
// is nothing there, or a link that leads nowhere.
std::string path_kind(const std::string& path);

// path_missing: nothing at all is at `path` (not even a dangling link).
bool path_missing(const std::string& path);

}  // namespace lockstep::cli
