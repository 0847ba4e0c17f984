#include "module/residue_watch.h"

namespace lockstep {
ResidueWatch::ResidueWatch(Inspect inspect)
    : outer_(detail::t_residue_watch), inspect_(std::move(inspect)), stack_(std::make_unique<residue::Stack>()) {
  detail::t_residue_watch = this;
}

ResidueWatch::~ResidueWatch() { detail::t_residue_watch = outer_; }

std::uintptr_t ResidueWatch::call_raw(std::string_view function, residue::RawFunction fn,
                                      std::span<const std::uintptr_t> args) {
  // The watch is off while it inspects: a check that calls a backend to
  // compute what it looks for does not run on the stack it reads.
  detail::t_residue_watch = outer_;
  const std::uintptr_t result = stack_->call(fn, args);
  ++calls_;
  inspect_(function, *stack_);
  detail::t_residue_watch = this;
  return result;
}

}  // namespace lockstep
