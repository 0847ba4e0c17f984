#include "run_support.h"

#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "catalog.h"

namespace lockstep::fuzz {
namespace {

const Backend* only_backend() {
  static const Backend* only = []() -> const Backend* {
    const char* name = std::getenv("LOCKSTEP_FUZZ_BACKEND");
    if (!name || !*name) return nullptr;
    const Backend* b = catalog::find_backend(name);
    if (!b) {
      std::fprintf(stderr, "lockstep: LOCKSTEP_FUZZ_BACKEND=%s: no such backend\n", name);
      std::exit(2);
    }
    if (!b->usable(cpu::effective())) {
      std::fprintf(stderr, "lockstep: LOCKSTEP_FUZZ_BACKEND=%s: needs %s, which this CPU lacks\n",
                   name, (b->needs - cpu::effective()).to_string().c_str());
      std::exit(2);
    }
    return b;
  }();
  return only;
}

}  // namespace

HeapBuffer::HeapBuffer(size_t n) {
  void* p = nullptr;
  if (posix_memalign(&p, 64, n ? n : 1) != 0) std::abort();
  ptr.reset(static_cast<uint8_t*>(p));
}

void HeapBuffer::Free::operator()(uint8_t* p) const { std::free(p); }

bool runs_on(const Backend& b) {
  const Backend* only = only_backend();
  return b.usable(cpu::effective()) && (!only || &b == only);
}

void print_signature(const Program& p, const Backend& b) {
  const std::string impl(b.name.substr(b.name.find('/') + 1));
  const std::string_view op = operation_name(p.op);
  std::fprintf(stderr, "lockstep: %s/%s != oracle (%.*s)\n", p.algorithm.c_str(), impl.c_str(),
               static_cast<int>(op.size()), op.data());
}

std::string hex(const Bytes& b) { return fmt::format("{:02x}", fmt::join(b, "")); }

}  // namespace lockstep::fuzz
