// How the front ends' calls of a backend's functions (impl's invoke(),
// impl/intercept.h) are made. lockstep's own are called directly. A
// module's always go through the abi trampoline (abi/abi_check.h), which
// plants random values in the callee-saved registers and puts them back
// afterwards: code lockstep did not write must not be able to break the
// caller's registers, whatever else it gets wrong. That guard is the
// module source's (host.cpp).
//
// The abi check turns on an audit (AbiAudit) for one thread: then every call,
// built-in or module, goes through the trampoline and its findings are
// collected, function by function: the audit is that thread's interceptor
// while it lives (the innermost of an audit and a residue watch wins).
#pragma once

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "abi/abi_check.h"
#include "intercept.h"

namespace lockstep {

// AbiAudit collects what the trampoline saw while it is alive, on the thread
// that made it.
class AbiAudit {
 public:
  struct Finding {
    std::string function;  // "blocks", "finup_2x", "crypt"
    abi::Report report;
  };

  AbiAudit();
  ~AbiAudit();
  AbiAudit(const AbiAudit&) = delete;
  AbiAudit& operator=(const AbiAudit&) = delete;

  void record(std::string_view function, const abi::Report& r);
  // intercept runs the call through the trampoline and records its report.
  static std::uintptr_t intercept(const Call& call);

  size_t calls() const { return calls_; }
  // Every report with a clobbered register or a warning, the first of each
  // (function, text) pair only.
  const std::vector<Finding>& findings() const { return findings_; }

 private:
  AbiAudit* outer_;
  Interceptor outer_interceptor_;
  size_t calls_ = 0;
  std::vector<Finding> findings_;
};

// DirectModuleCalls: while one is alive on a thread (and no audit is),
// module functions are called straight, without the trampoline: the
// baseline against which `lockstep bench` reports what the guard costs.
class DirectModuleCalls {
 public:
  DirectModuleCalls();
  ~DirectModuleCalls();
  DirectModuleCalls(const DirectModuleCalls&) = delete;
  DirectModuleCalls& operator=(const DirectModuleCalls&) = delete;

  static bool on();

 private:
  bool outer_;
};

// guarded_call calls a module's function through the trampoline, without a
// report (a hash may be re-entered from a signal handler, and a report's
// names allocate), or straight while DirectModuleCalls is on.
std::uintptr_t guarded_call(const Call& call);

}  // namespace lockstep
