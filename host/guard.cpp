#include "host/guard.h"

#include <algorithm>

namespace lockstep {
static_assert(Call::kMaxArgs <= abi::kMaxArgs, "the trampoline passes every argument a backend function takes");

namespace {
thread_local AbiAudit* t_audit = nullptr;
thread_local bool t_direct = false;
}  // namespace

DirectModuleCalls::DirectModuleCalls() : outer_(t_direct) { t_direct = true; }
DirectModuleCalls::~DirectModuleCalls() { t_direct = outer_; }
bool DirectModuleCalls::on() { return t_direct; }

AbiAudit::AbiAudit() : outer_(t_audit), outer_interceptor_(set_thread_interceptor(&AbiAudit::intercept)) {
  t_audit = this;
}
AbiAudit::~AbiAudit() {
  t_audit = outer_;
  set_thread_interceptor(outer_interceptor_);
}

void AbiAudit::record(std::string_view function, const abi::Report& r) {
  ++calls_;
  if (r.ok() && !r.upper_vector_state_dirty) return;
  const std::string text = r.to_string();
  const bool seen = std::any_of(findings_.begin(), findings_.end(), [&](const Finding& f) {
    return f.function == function && f.report.to_string() == text;
  });
  if (!seen) findings_.push_back({std::string(function), r});
}

std::uintptr_t guarded_call(const Call& call) {
  if (!abi::kSupported || DirectModuleCalls::on()) return call.direct(call.fn, call.args);
  return abi::call_raw_preserving(reinterpret_cast<abi::RawFunction>(call.fn), call.args);
}

std::uintptr_t AbiAudit::intercept(const Call& call) {
  abi::Report report;
  std::uintptr_t result;
  if constexpr (abi::kSupported) {
    result = abi::call_raw(report, reinterpret_cast<abi::RawFunction>(call.fn), call.args);
  } else {
    report.supported = false;
    result = call.direct(call.fn, call.args);
  }
  t_audit->record(call.function, report);
  return result;
}

}  // namespace lockstep
