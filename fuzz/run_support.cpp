#include "run_support.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>

#include <fmt/format.h>

#include "catalog.h"

namespace lockstep::fuzz {
namespace {

// The LOCKSTEP_FUZZ_BACKEND pattern: an exact name, or a glob over names
// ("*/x86-phe"). An exact name that is unknown or unusable here is an error
// (exit 2), not a run that checks nothing; a glob that matches no backend at
// all is an error too.
const char* backend_pattern() {
  static const char* pattern = []() -> const char* {
    const char* p = std::getenv("LOCKSTEP_FUZZ_BACKEND");
    if (!p || !*p) return nullptr;
    const bool glob = std::strpbrk(p, "*?[") != nullptr;
    bool any = false;
    for (const catalog::Family* f : catalog::families())
      for (const Backend* b : f->backends()) any = any || fnmatch(p, std::string(b->name).c_str(), 0) == 0;
    if (!any) {
      std::fprintf(stderr, "lockstep: LOCKSTEP_FUZZ_BACKEND=%s: no such backend\n", p);
      std::exit(2);
    }
    if (!glob) {
      const Backend* b = catalog::find_backend(p);
      if (!b->usable(cpu::effective())) {
        std::fprintf(stderr, "lockstep: LOCKSTEP_FUZZ_BACKEND=%s: needs %s, which this CPU lacks\n", p,
                     (b->needs - cpu::effective()).to_string().c_str());
        std::exit(2);
      }
    }
    return p;
  }();
  return pattern;
}

}  // namespace

HeapBuffer::HeapBuffer(size_t n) {
  void* p = nullptr;
  if (posix_memalign(&p, 64, n ? n : 1) != 0) std::abort();
  ptr.reset(static_cast<uint8_t*>(p));
}

void HeapBuffer::Free::operator()(uint8_t* p) const { std::free(p); }

bool runs_on(const Backend& b) {
  const char* pattern = backend_pattern();
  return b.usable(cpu::effective()) && (!pattern || fnmatch(pattern, std::string(b.name).c_str(), 0) == 0);
}

namespace {
std::string g_reproduce;  // set once by announce_backends
}  // namespace

void announce_backends(std::string_view harness, std::string_view family_name, std::string_view input) {
  // The effective features, as a mask that sets exactly them elsewhere.
  std::string mask = "all=off";
  const std::string features = cpu::effective().to_string();
  for (size_t at = 0; at < features.size();) {
    const size_t end = std::min(features.find(' ', at), features.size());
    if (end > at) mask += ",+" + features.substr(at, end - at);
    at = end + 1;
  }
  g_reproduce = fmt::format("reproduce: LOCKSTEP_CPU={} ./{} {}", mask, harness,
                            input.empty() ? "crash-<the file libFuzzer names below>" : input);

  const catalog::Family* family = catalog::find_family(family_name);
  std::string ran, skipped;
  const char* pattern = backend_pattern();
  for (const Backend* b : family ? family->backends() : std::span<const Backend* const>{}) {
    if (pattern && fnmatch(pattern, std::string(b->name).c_str(), 0) != 0) continue;
    std::string& list = runs_on(*b) ? ran : skipped;
    list += (list.empty() ? "" : " ") + std::string(b->name);
  }
  std::fprintf(stderr, "%.*s: checks %s against the oracle; CPU features %s%s%s\n",
               static_cast<int>(harness.size()), harness.data(), ran.empty() ? "no backend" : ran.c_str(),
               cpu::effective().to_string().c_str(), skipped.empty() ? "" : "; not here: ",
               skipped.c_str());
  std::fprintf(stderr, "%s\n", g_reproduce.c_str());
  if (ran.empty()) {
    std::fprintf(stderr, "%.*s: SKIP: no %.*s backend%s runs on this CPU\n", static_cast<int>(harness.size()),
                 harness.data(), static_cast<int>(family_name.size()), family_name.data(),
                 pattern ? " matching LOCKSTEP_FUZZ_BACKEND" : "");
    std::exit(77);
  }
}

void print_signature(const Program& p, const Backend& b) {
  const std::string impl(b.name.substr(b.name.find('/') + 1));
  const std::string_view op = operation_name(p.op);
  std::fprintf(stderr, "lockstep: %s/%s != oracle (%.*s)\n", p.algorithm.c_str(), impl.c_str(),
               static_cast<int>(op.size()), op.data());
  if (!g_reproduce.empty()) std::fprintf(stderr, "%s\n", g_reproduce.c_str());
}

std::string hex(const Bytes& b) { return fmt::format("{:02x}", fmt::join(b, "")); }

}  // namespace lockstep::fuzz
