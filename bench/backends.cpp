// Every backend of every algorithm family through the catalog: one digest,
// or one message's init and crypt, per iteration.
#include <benchmark/benchmark.h>

#include <optional>
#include <string>

#include "bench.h"
#include "catalog.h"
#include "cpu/cpu.h"
#include "host/guard.h"

namespace lockstep::bench {

std::string skip_reason(const Backend& b) {
  const cpu::FeatureSet effective = cpu::effective();
  if (b.usable(effective)) return {};
  if (!b.broken.empty()) return std::string(b.broken);
  if (!b.unavailable.empty()) return std::string(b.unavailable);
  return "needs " + (b.needs - effective).to_string() + ", which this CPU lacks";
}

namespace {

std::string name(std::string_view kind, std::string_view alg, const Backend& b, size_t len) {
  return std::string(kind) + "/" + std::string(alg) + "/" + std::string(b.name) + "/" +
         std::to_string(len);
}

}  // namespace

void digest(benchmark::State& state, const catalog::HashAlgorithm& h, const Backend& b, size_t len,
            ModuleCalls calls) {
  if (const std::string why = skip_reason(b); !why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  std::optional<DirectModuleCalls> direct;
  if (calls == ModuleCalls::kDirect) direct.emplace();
  const std::vector<uint8_t> msg = bytes(len, 1);
  uint8_t out[64];
  const KernelEntries entries(b);
  for (auto _ : state) {
    h.digest(msg.data(), len, out, &b);
    entries.return_to_user();
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  entries.count(state);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(len));
}

void crypt(benchmark::State& state, const catalog::CipherAlgorithm& c, const Backend& b, size_t len,
           ModuleCalls calls) {
  if (const std::string why = skip_reason(b); !why.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  std::optional<DirectModuleCalls> direct;
  if (calls == ModuleCalls::kDirect) direct.emplace();
  const std::vector<uint8_t> key = bytes(32, 2), nonce = bytes(c.nonce_size, 3), src = bytes(len, 4);
  std::vector<uint8_t> dst(len);
  uint32_t st[16];
  // One message per iteration, from block 0 as a fresh nonce's would be:
  // continuing one stream would let the anchors reuse the rest of a partial
  // block's keystream, which crypt() discards by contract.
  const KernelEntries entries(b);
  for (auto _ : state) {
    c.init(st, key.data(), 0, nonce.data());
    c.crypt(st, dst.data(), src.data(), len, &b);
    entries.return_to_user();
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  entries.count(state);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(len));
}

std::vector<std::string_view> algorithms() {
  std::vector<std::string_view> out;
  // A hash family is benchmarked through the algorithm named like it
  // (sha256, sha512): SHA-224 and SHA-384 run the same block functions.
  for (const catalog::HashAlgorithm* h : catalog::hash_algorithms())
    if (h->name == h->family->name) out.push_back(h->name);
  // A cipher family is benchmarked through its first cipher (ChaCha20):
  // ChaCha12 is the same code with fewer rounds, XChaCha20 the same after
  // one HChaCha20.
  for (const catalog::Family* f : catalog::families())
    if (!f->ciphers.empty()) out.push_back(f->ciphers.front()->name);
  return out;
}

void register_backends(std::string_view alg, size_t len) {
  if (const catalog::HashAlgorithm* h = catalog::find_hash(alg)) {
    for (const Backend* b : h->family->backends())
      benchmark::RegisterBenchmark(name("hash", h->name, *b, len).c_str(),
                                   [h, b, len](benchmark::State& s) { digest(s, *h, *b, len, ModuleCalls::kDirect); });
  } else if (const catalog::CipherAlgorithm* c = catalog::find_cipher(alg)) {
    for (const Backend* b : c->family->backends())
      benchmark::RegisterBenchmark(name("crypt", c->name, *b, len).c_str(),
                                   [c, b, len](benchmark::State& s) { crypt(s, *c, *b, len, ModuleCalls::kDirect); });
  }
}

void describe_backends() {
  for (const std::string_view alg : algorithms()) {
    const catalog::HashAlgorithm* h = catalog::find_hash(alg);
    const catalog::CipherAlgorithm* c = h ? nullptr : catalog::find_cipher(alg);
    const catalog::Family* f = h ? h->family : c ? c->family : nullptr;
    if (!f) continue;
    const Backend* chosen = f->default_backend();
    for (const Backend* b : f->backends()) {
      const char* role = b == chosen ? "default" : b->module.empty() ? "own" : "module";
      benchmark::AddCustomContext("lockstep_backend/" + std::string(b->name),
                                  std::string(role) + ";" + b->needs.to_string());
    }
  }
}

}  // namespace lockstep::bench
