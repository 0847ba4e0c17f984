// Module backends of the ChaCha family (module_source.h): descriptors whose
// functions are the module's own, with the counter semantics, round
// counts, overlap and wiping the module declared.
#include <deque>
#include <vector>

#include "chacha/chacha.h"

namespace lockstep::chacha {

std::span<const ChachaBackend* const> module_backends() {
  static std::deque<ChachaBackend> descriptors;  // stable addresses; atomics do not move
  static const std::vector<const ChachaBackend*> list = [] {
    std::vector<const ChachaBackend*> out;
    for (const ModuleBackend* m : module_backends_of("chacha")) {
      ChachaBackend& b = descriptors.emplace_back();
      b.take_module_fields(*m);
      b.crypt = m->c->chacha_crypt;
      b.counter = static_cast<Counter>(m->c->chacha_counter);
      b.rounds = m->c->chacha_rounds;
      b.overlap = static_cast<Overlap>(m->c->chacha_overlap);
      b.hchacha = m->c->hchacha;
      b.cipher_driver = m->c->cipher_driver;
      out.push_back(&b);
    }
    return out;
  }();
  return list;
}

}  // namespace lockstep::chacha
