// How the front ends call a backend's functions. lockstep's own are called
// directly. A module's always go through the abi trampoline (abi/abi_check.h),
// which plants random values in the callee-saved registers and puts them
// back afterwards: code lockstep did not write must not be able to break the
// caller's registers, whatever else it gets wrong.
//
// The abi check turns on an audit (AbiAudit) for one thread: then every call,
// built-in or module, goes through the trampoline and its findings are
// collected, function by function.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "abi/abi_check.h"
#include "module/residue_watch.h"

namespace lockstep {

struct Backend;

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

  static AbiAudit* active();
  void record(std::string_view function, const abi::Report& r);

  size_t calls() const { return calls_; }
  // Every report with a clobbered register or a warning, the first of each
  // (function, text) pair only.
  const std::vector<Finding>& findings() const { return findings_; }

 private:
  AbiAudit* outer_;
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

// invoke calls `fn`, one of `b`'s functions, with `args`.
template <class R, class... Args>
R invoke(const Backend& b, std::string_view function, R (*fn)(Args...),
         std::type_identity_t<Args>... args);

}  // namespace lockstep
