// `lockstep hash`: sha256sum-compatible output through any backend, so a
// backend can be checked by eye against coreutils.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "catalog.h"
#include "commands.h"

namespace lockstep::cli {
namespace {

// resolve_backend accepts "sha256/x86-shani" or, within the family,
// "x86-shani". On failure it sets `error` and `status`: 2 for a name that is
// no backend of the algorithm's family (a usage error), 1 for a backend this
// CPU cannot run.
const Backend* resolve_backend(const catalog::HashAlgorithm& alg, const std::string& name,
                               std::string& error, int& status) {
  const catalog::Family& fam = *alg.family;
  const std::string full = name.find('/') == std::string::npos
                               ? std::string(fam.name) + "/" + name
                               : name;
  for (const Backend* b : fam.backends()) {
    if (b->name != full) continue;
    const cpu::FeatureSet eff = cpu::effective();
    if (!b->usable(eff)) {
      error = fmt::format("backend {} needs {}, which this CPU lacks (effective: {})", b->name,
                          (b->needs - eff).to_string(), eff.to_string());
      status = 1;
      return nullptr;
    }
    return b;
  }
  status = 2;
  if (const Backend* other = catalog::find_backend(full)) {
    error = fmt::format("backend {} belongs to family {}; --alg {} needs a backend of family {}",
                        other->name, catalog::family_of(other)->name, alg.name, fam.name);
    return nullptr;
  }
  std::string known;
  for (const Backend* b : fam.backends()) known += " " + std::string(b->name);
  error = fmt::format("unknown backend '{}' for {} (known:{})", name, alg.name, known);
  return nullptr;
}

// hash_fd streams `fd` through the front end; returns errno on a read error.
int hash_fd(int fd, const catalog::HashAlgorithm& alg, const Backend* b, std::vector<uint8_t>& out) {
  // Contexts of every algorithm are 8-byte aligned at most.
  std::vector<uint64_t> ctx((alg.ctx_size + 7) / 8);
  void* c = ctx.data();
  std::vector<uint8_t> buf(1 << 16);
  alg.init(c, b);
  for (;;) {
    ssize_t n = read(fd, buf.data(), buf.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (n == 0) break;
    alg.update(c, buf.data(), static_cast<size_t>(n));
  }
  out.resize(alg.digest_size);
  alg.final(c, out.data());
  return 0;
}

}  // namespace

int cmd_hash(const HashOptions& o) {
  const catalog::HashAlgorithm* alg = catalog::find_hash(o.alg);
  if (!alg) {
    fmt::print(stderr, "lockstep hash: unknown algorithm '{}'\n", o.alg);
    return 2;
  }
  const Backend* backend = nullptr;
  if (!o.backend.empty()) {
    std::string error;
    int status = 1;
    backend = resolve_backend(*alg, o.backend, error, status);
    if (!backend) {
      fmt::print(stderr, "lockstep hash: {}\n", error);
      return status;
    }
  }

  std::vector<std::string> files = o.files;
  if (files.empty()) files.push_back("-");
  int status = 0;
  std::vector<uint8_t> md;
  for (const std::string& f : files) {
    const bool stdin_ = f == "-";
    const int fd = stdin_ ? 0 : open(f.c_str(), O_RDONLY | O_CLOEXEC);
    int err = fd < 0 ? errno : hash_fd(fd, *alg, backend, md);
    if (fd > 0) close(fd);
    if (err) {
      fmt::print(stderr, "lockstep hash: {}: {}\n", f, std::strerror(err));
      status = 1;
      continue;
    }
    fmt::print("{:02x}  {}\n", fmt::join(md, ""), f);
  }
  std::fflush(stdout);
  return status;
}

}  // namespace lockstep::cli
