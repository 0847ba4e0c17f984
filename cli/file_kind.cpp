#include "file_kind.h"

#include <sys/stat.h>

namespace lockstep::cli {

const char* file_kind(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

bool path_missing(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) != 0;
}

std::string path_kind(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0) return file_kind(st.st_mode);
  if (!path_missing(path)) return "a dangling or looping symbolic link";
  return "no such file or directory";
}

}  // namespace lockstep::cli
