#include "module/guard.h"

#include <algorithm>

namespace lockstep {
namespace {
thread_local AbiAudit* t_audit = nullptr;
thread_local bool t_direct = false;
}  // namespace

DirectModuleCalls::DirectModuleCalls() : outer_(t_direct) { t_direct = true; }
DirectModuleCalls::~DirectModuleCalls() { t_direct = outer_; }
bool DirectModuleCalls::on() { return t_direct; }

AbiAudit::AbiAudit() : outer_(t_audit) { t_audit = this; }
AbiAudit::~AbiAudit() { t_audit = outer_; }

AbiAudit* AbiAudit::active() { return t_audit; }

void AbiAudit::record(std::string_view function, const abi::Report& r) {
  ++calls_;
  if (r.ok() && !r.upper_vector_state_dirty) return;
  const std::string text = r.to_string();
  const bool seen = std::any_of(findings_.begin(), findings_.end(), [&](const Finding& f) {
    return f.function == function && f.report.to_string() == text;
  });
  if (!seen) findings_.push_back({std::string(function), r});
}

}  // namespace lockstep
