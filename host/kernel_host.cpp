#include "host/kernel_host.h"

#include <algorithm>
#include <cerrno>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>

#include "cpu/cpu.h"

// kernel_sections.c, compiled apart (general registers only).
extern "C" void lockstep_kernel_section_begin(const char* call);
extern "C" void lockstep_kernel_section_end(const char* call);
extern "C" void lockstep_kernel_section_stats(uint64_t* completed, uint64_t* dirty, bool* open, uint64_t* saves,
                                              uint64_t* restores);
extern "C" void lockstep_kernel_return_to_user(void);
extern "C" bool lockstep_kernel_fpu_lazy(bool lazy);
extern "C" bool lockstep_kernel_fpu_is_lazy(void);
extern "C" void lockstep_kernel_fpu_describe(const char** save_insn, const char** restore_insn, uint32_t* area,
                                             uint64_t* xcr0);

namespace lockstep::module::kernel {
namespace {

constexpr const char* kSimdVar = "LOCKSTEP_KERNEL_SIMD";

Simd environment_simd_mode() {
  static const Simd mode = [] {
    const char* v = std::getenv(kSimdVar);
    const std::string_view value = v ? v : "";
    if (value.empty() || value == "usable") return Simd::kUsable;
    if (value == "unusable") return Simd::kUnusable;
    if (value == "alternate") return Simd::kAlternate;
    std::fprintf(stderr, "lockstep: %s=%s: not one of usable, unusable, alternate\n", kSimdVar, v);
    std::exit(2);
  }();
  return mode;
}

thread_local std::optional<Simd> t_simd_mode;
thread_local bool t_alternate_usable = false;

bool cpu_has(const char* name) {
  const std::optional<cpu::Feature> f = name ? cpu::parse_feature(name) : std::nullopt;
  if (!f) {
    std::fprintf(stderr,
                 "lockstep: kernel environment: the module asks for CPU feature '%s', which "
                 "lockstep does not model (it knows: %s)\n",
                 name ? name : "(null)", cpu::known_feature_names().c_str());
    std::exit(2);
  }
  return cpu::effective().has(*f);
}

bool simd_usable() {
  // As the kernel's irq_fpu_usable(): code that interrupted a section (a
  // signal handler here, an interrupt there) must not open another.
  if (section_stats().open) return false;
  switch (simd_mode()) {
    case Simd::kUsable: return true;
    case Simd::kUnusable: return false;
    case Simd::kAlternate: return t_alternate_usable = !t_alternate_usable;
  }
  return true;
}

std::mutex g_selections_mutex;
std::vector<std::string> g_selections;
std::string g_initialising;  // the module whose entry function runs now

void selected(const char* what) {
  const std::lock_guard lock(g_selections_mutex);
  std::string line = g_initialising.empty() ? std::string("(after init) ") : g_initialising + ": ";
  // static_branch_enable(&key) names "&key"; the key's name is the news.
  for (const char* p = what; *p; ++p)
    if (*p != '&') line += *p;
  g_selections.push_back(std::move(line));
}

// The kernel's X86_VENDOR_* numbers (arch/x86/include/asm/processor.h), by
// CPUID vendor string.
struct VendorNumber {
  const char* cpuid;
  unsigned number;
};
constexpr VendorNumber kVendors[] = {
    {"GenuineIntel", 0}, {"AuthenticAMD", 2}, {"CentaurHauls", 5},
    {"HygonGenuine", 9}, {"  Shanghai  ", 10},
};
constexpr unsigned kUnknownVendor = 0xff;

void cpu_identity(unsigned* vendor, unsigned* family, unsigned* model) {
  const cpu::CpuId& id = cpu::identity();  // the environment's, not the host's
  unsigned v = id.vendor.empty() ? 0 : kUnknownVendor;
  for (const VendorNumber& n : kVendors)
    if (id.vendor == n.cpuid) v = n.number;
  if (vendor) *vendor = v;
  if (family) *family = id.family;
  if (model) *model = id.model;
}

// The process's crypto API: every driver the modules' inits registered.
struct Driver {
  std::string kernel, type, name, driver;
  int priority;
};
std::vector<Driver> g_drivers;  // under g_selections_mutex

int crypto_register(const char* kernel, const char* type, const char* cra_name, const char* cra_driver_name,
                    int priority) {
  const std::lock_guard lock(g_selections_mutex);
  for (const Driver& d : g_drivers)
    if (d.kernel == kernel && (d.driver == cra_driver_name || d.driver == cra_name || d.name == cra_driver_name))
      return -EEXIST;
  g_drivers.push_back({kernel, type, cra_name, cra_driver_name, priority});
  return 0;
}

void crypto_unregister(const char* kernel, const char* cra_driver_name) {
  const std::lock_guard lock(g_selections_mutex);
  std::erase_if(g_drivers, [&](const Driver& d) { return d.kernel == kernel && d.driver == cra_driver_name; });
}

// What crypto_alloc_shash(name) (or _skcipher) returns here, per kernel and algorithm, as
// lines "crypto API<kernel>: ...".
std::vector<std::string> crypto_selections() {
  std::vector<std::string> out;
  std::vector<std::pair<std::string, std::string>> names;
  for (const Driver& d : g_drivers)
    if (std::find(names.begin(), names.end(), std::pair(d.kernel, d.name)) == names.end())
      names.emplace_back(d.kernel, d.name);
  for (const auto& [kernel, name] : names) {
    const Driver* best = nullptr;
    std::string tied;
    for (const Driver& d : g_drivers) {
      if (d.kernel != kernel || d.name != name) continue;
      if (best == nullptr || d.priority > best->priority) {
        best = &d;
        tied.clear();
      } else if (d.priority == best->priority) {
        tied += ", " + d.driver;
      }
    }
    out.push_back("crypto API" + kernel + ": crypto_alloc_" + best->type + "(\"" + name + "\") = " + best->driver + tied +
                  " (priority " +
                  std::to_string(best->priority) + ")" +
                  (tied.empty() ? "" : ": equal priorities, so which one the kernel returns depends on the order "
                                       "of registration"));
  }
  return out;
}

const lockstep_kernel_host kHost = {
    LOCKSTEP_KERNEL_HOST_VERSION, cpu_has,  simd_usable,     lockstep_kernel_section_begin,
    lockstep_kernel_section_end,  selected, cpu_identity,    crypto_register,
    crypto_unregister,
};

}  // namespace

const lockstep_kernel_host* host() { return &kHost; }

Simd simd_mode() { return t_simd_mode.value_or(environment_simd_mode()); }
void set_thread_simd_mode(Simd mode) {
  t_simd_mode = mode;
  t_alternate_usable = false;  // alternate starts usable
}
void reset_thread_simd_mode() { t_simd_mode.reset(); }

std::vector<std::string> selections() {
  const std::lock_guard lock(g_selections_mutex);
  std::vector<std::string> out = g_selections;
  for (std::string& line : crypto_selections()) out.push_back(std::move(line));
  return out;
}

void begin_module_init(std::string_view file) {
  const std::lock_guard lock(g_selections_mutex);
  // The file's name: its directory is lockstep's or the user's business.
  g_initialising = file.substr(file.find_last_of('/') + 1);
}

void end_module_init() {
  const std::lock_guard lock(g_selections_mutex);
  g_initialising.clear();
}

SectionStats section_stats() {
  SectionStats s;
  lockstep_kernel_section_stats(&s.sections, &s.dirty_upper_at_end, &s.open, &s.saves, &s.restores);
  return s;
}

FpuModel set_thread_fpu_model(FpuModel model) {
  return lockstep_kernel_fpu_lazy(model == FpuModel::kLazy) ? FpuModel::kLazy : FpuModel::kStrict;
}

FpuModel thread_fpu_model() { return lockstep_kernel_fpu_is_lazy() ? FpuModel::kLazy : FpuModel::kStrict; }

void return_to_user() { lockstep_kernel_return_to_user(); }

FpuModelInfo fpu_model_info() {
  FpuModelInfo i;
  i.model = thread_fpu_model() == FpuModel::kLazy ? "lazy" : "strict";
  lockstep_kernel_fpu_describe(&i.save, &i.restore, &i.area_bytes, &i.xcr0);
  return i;
}

}  // namespace lockstep::module::kernel
