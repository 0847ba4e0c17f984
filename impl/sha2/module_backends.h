// Module backends of a SHA-2 family (module_source.h): each loaded module
// backend becomes a descriptor of the family's own type, whose functions are
// the module's, unwrapped; the C types of include/lockstep/module.h are the
// front end's types, so nothing converts between them.
#pragma once

#include <deque>
#include <span>
#include <vector>

#include "sha2/sha2.h"

namespace lockstep::sha2 {

template <class F>
std::span<const HashBackend<F>* const> module_backends() {
  static std::deque<HashBackend<F>> descriptors;  // stable addresses; atomics do not move
  static const std::vector<const HashBackend<F>*> list = [] {
    std::vector<const HashBackend<F>*> out;
    for (const ModuleBackend* m : module_backends_of(F::kName)) {
      HashBackend<F>& b = descriptors.emplace_back();
      b.take_module_fields(*m);
      b.hash_driver = m->c->hash_driver;
      b.blocks = m->c->*F::kModuleBlocks;
      if constexpr (requires { F::kModuleFinup2x; }) b.finup_2x = m->c->*F::kModuleFinup2x;
      out.push_back(&b);
    }
    return out;
  }();
  return list;
}

}  // namespace lockstep::sha2
