#include "output_paths.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;

std::string errno_text(int e) { return std::strerror(e); }

// The nearest of `p` and its parents that exists, with what stat said of
// it; an empty path when none does (a relative path's "." always does).
fs::path nearest_existing(fs::path p, struct stat& st) {
  p = fs::absolute(p).lexically_normal();
  for (;;) {
    if (stat(p.c_str(), &st) == 0) return p;
    if (!p.has_relative_path()) return {};
    p = p.parent_path();
  }
}

// Why nothing can be made in the existing directory `dir`: tried for real,
// with a directory made and removed at once (permission bits alone do not
// tell, for root, nor on a read-only mount or in /proc).
std::string not_writable_dir(const fs::path& dir) {
  std::string probe = (dir / ".lockstep-probe-XXXXXX").string();
  if (mkdtemp(probe.data()) == nullptr)
    return fmt::format("cannot write in {}: {}", dir.string(), errno_text(errno));
  rmdir(probe.c_str());
  return "";
}

}  // namespace

std::string output_file_problem(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "is a directory; a file is expected";
    // Opening a FIFO to write waits for a reader: the run would hang at its end.
    if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) return "is a FIFO or a socket, not a file";
    // Opened to write, neither truncated nor changed.
    const int fd = open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return "cannot write it: " + errno_text(errno);
    close(fd);
    return "";
  }
  if (errno != ENOENT && errno != ENOTDIR) return "cannot reach it: " + errno_text(errno);
  const fs::path parent = fs::absolute(path).lexically_normal().parent_path();
  struct stat pst;
  const fs::path existing = nearest_existing(parent, pst);
  if (existing.empty()) return "cannot reach it";
  if (!S_ISDIR(pst.st_mode)) return fmt::format("{} is not a directory", existing.string());
  if (existing != parent) return fmt::format("its directory {} does not exist", parent.string());
  return not_writable_dir(parent);
}

std::string output_dir_problem(const std::string& path) {
  struct stat st;
  const fs::path existing = nearest_existing(path, st);
  if (existing.empty()) return "cannot reach it";
  if (!S_ISDIR(st.st_mode))
    return existing == fs::absolute(path).lexically_normal()
               ? std::string("is not a directory")
               : fmt::format("{} is not a directory", existing.string());
  return not_writable_dir(existing);
}

int check_run_outputs(const RunOptions& o, const char* who) {
  int rc = 0;
  auto judge = [&](const char* option, const std::string& path, const std::string& problem) {
    if (problem.empty()) return;
    fmt::print(stderr, "{}: {} {}: {}\n", who, option, path, problem);
    rc = 2;
  };
  const std::string out = o.out.empty() ? std::string(LOCKSTEP_BUILD_DIR) + "/run" : o.out;
  judge(o.out.empty() ? "the log folder" : "--out", out, output_dir_problem(out));
  if (!o.json_out.empty()) {
    judge("--json", o.json_out, output_file_problem(o.json_out));
  } else if (rc == 0) {
    // OUT/matrix.json: only what is already there can stand in its way.
    const std::string json = (fs::path(out) / "matrix.json").string();
    struct stat st;
    if (stat(json.c_str(), &st) == 0) judge("the matrix (--json)", json, output_file_problem(json));
  }
  if (!o.junit_out.empty()) judge("--junit", o.junit_out, output_file_problem(o.junit_out));
  if (!o.ktap_out.empty()) judge("--ktap", o.ktap_out, output_file_problem(o.ktap_out));
  return rc;
}

}  // namespace lockstep::cli
