#include "host/residue_watch.h"

namespace lockstep {
static_assert(Call::kMaxArgs <= residue::kMaxArgs, "the stack passes every argument a backend function takes");

ResidueWatch::ResidueWatch(Inspect inspect)
    : outer_(detail::t_residue_watch),
      outer_interceptor_(set_thread_interceptor(&ResidueWatch::intercept)),
      inspect_(std::move(inspect)),
      stack_(std::make_unique<residue::Stack>()) {
  detail::t_residue_watch = this;
}

ResidueWatch::~ResidueWatch() {
  detail::t_residue_watch = outer_;
  set_thread_interceptor(outer_interceptor_);
}

std::uintptr_t ResidueWatch::call(std::string_view function, RawFunction fn, std::span<const std::uintptr_t> args) {
  // The watch is off while it inspects: a check that calls a backend to
  // compute what it looks for does not run on the stack it reads.
  detail::t_residue_watch = outer_;
  const Interceptor self = set_thread_interceptor(outer_interceptor_);
  const std::uintptr_t result = stack_->call(reinterpret_cast<residue::RawFunction>(fn), args);
  ++calls_;
  inspect_(function, *stack_);
  set_thread_interceptor(self);
  detail::t_residue_watch = this;
  return result;
}

std::uintptr_t ResidueWatch::intercept(const Call& call) { return active()->call(call.function, call.fn, call.args); }

}  // namespace lockstep
