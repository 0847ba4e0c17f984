#include "host/loader.h"

#include "host/kernel_host.h"

#include <dlfcn.h>
#include <elf.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>

namespace lockstep::module {
namespace {

constexpr std::string_view kFamilies[] = {"sha256", "sha512", "chacha"};

// The algorithms each family's backends serve, as `algorithms` names them.
const std::vector<std::string_view>& family_algorithms(std::string_view family) {
  static const std::vector<std::string_view> sha256 = {"sha256", "sha224"};
  static const std::vector<std::string_view> sha512 = {"sha512", "sha384", "sha512-224", "sha512-256"};
  static const std::vector<std::string_view> chacha = {"chacha20", "chacha12", "xchacha20"};
  return family == "sha256" ? sha256 : family == "sha512" ? sha512 : chacha;
}

// struct lockstep_backend as ABI version 1 laid it out: the fields up to
// chacha_rounds, which version 2 keeps where they were and appends to. A C
// array is indexed by its element's size, so a version 1 module's array
// is read with this one's, never the current struct's, which is larger.
struct BackendV1 {
  const char* family;
  const char* name;
  const char* needs;
  const char* notes;
  decltype(lockstep_backend::sha256_blocks) sha256_blocks;
  decltype(lockstep_backend::sha256_finup_2x) sha256_finup_2x;
  decltype(lockstep_backend::sha512_blocks) sha512_blocks;
  decltype(lockstep_backend::chacha_crypt) chacha_crypt;
  decltype(lockstep_backend::hchacha) hchacha;
  int chacha_counter;
  unsigned chacha_rounds;
};
#define LOCKSTEP_V1_FIELD_AT(f) \
  static_assert(offsetof(BackendV1, f) == offsetof(lockstep_backend, f), "version 1 field " #f " moved")
LOCKSTEP_V1_FIELD_AT(family);
LOCKSTEP_V1_FIELD_AT(name);
LOCKSTEP_V1_FIELD_AT(needs);
LOCKSTEP_V1_FIELD_AT(notes);
LOCKSTEP_V1_FIELD_AT(sha256_blocks);
LOCKSTEP_V1_FIELD_AT(sha256_finup_2x);
LOCKSTEP_V1_FIELD_AT(sha512_blocks);
LOCKSTEP_V1_FIELD_AT(chacha_crypt);
LOCKSTEP_V1_FIELD_AT(hchacha);
LOCKSTEP_V1_FIELD_AT(chacha_counter);
LOCKSTEP_V1_FIELD_AT(chacha_rounds);
#undef LOCKSTEP_V1_FIELD_AT
static_assert(offsetof(lockstep_backend, chacha_overlap) >= sizeof(BackendV1),
              "a version 2 field inside the version 1 layout");

// Version 2 ended with wipes; its element is padded to the pointer after.
constexpr size_t kBackendV2Size = offsetof(lockstep_backend, unavailable);
static_assert(kBackendV2Size % alignof(lockstep_backend) == 0 &&
                  kBackendV2Size - offsetof(lockstep_backend, wipes) <= alignof(lockstep_backend),
              "version 2's element ends where version 3's fields begin");

// Version 3 ended with broken, a pointer: its element ends there.
constexpr size_t kBackendV3Size = offsetof(lockstep_backend, max_call_bytes);
static_assert(kBackendV3Size == offsetof(lockstep_backend, broken) + sizeof(const char*),
              "version 3's element ends where version 4's fields begin");

// Version 4 ended with max_call_bytes.
constexpr size_t kBackendV4Size = offsetof(lockstep_backend, same_code_as);
static_assert(kBackendV4Size == offsetof(lockstep_backend, max_call_bytes) + sizeof(size_t),
              "version 4's element ends where version 5's fields begin");

// Version 5 ended with cipher_driver.
constexpr size_t kBackendV5Size = offsetof(lockstep_backend, mac_driver);
static_assert(kBackendV5Size == offsetof(lockstep_backend, cipher_driver) + sizeof(void*),
              "version 5's element ends where version 6's fields begin");

// The size of one element of a module's backends array, by the version
// its table states; 0 for a version this lockstep does not know.
static_assert(LOCKSTEP_MODULE_ABI_VERSION == 6, "a new version: give its element size below");
size_t backend_stride(uint32_t abi_version) {
  switch (abi_version) {
    case 1: return sizeof(BackendV1);
    case 2: return kBackendV2Size;
    case 3: return kBackendV3Size;
    case 4: return kBackendV4Size;
    case 5: return kBackendV5Size;
    case 6: return sizeof(lockstep_backend);
    default: return 0;
  }
}

// Every backend as lockstep reads it: the module's element copied into the
// current layout, the fields its version lacks left 0. Stable addresses,
// for LoadedBackend::c; the modules stay loaded, and so do these.
std::deque<lockstep_backend>& widened() {
  static std::deque<lockstep_backend> all;
  return all;
}

std::string_view arch_of_machine(uint16_t machine) {
  switch (machine) {
    case EM_X86_64: return "x86_64";
    case EM_AARCH64: return "arm64";
    default: return "";
  }
}

// Each family's functions as the ABI names them: which it must have, which
// it may have. A function of another family is a mistake worth naming.
struct Function {
  std::string_view field;
  std::string_view family;
  bool required;
  bool (*set)(const lockstep_backend&);
};

constexpr Function kFunctions[] = {
    {"sha256_blocks", "sha256", true, [](const lockstep_backend& b) { return b.sha256_blocks != nullptr; }},
    {"sha256_finup_2x", "sha256", false, [](const lockstep_backend& b) { return b.sha256_finup_2x != nullptr; }},
    {"sha512_blocks", "sha512", true, [](const lockstep_backend& b) { return b.sha512_blocks != nullptr; }},
    {"chacha_crypt", "chacha", true, [](const lockstep_backend& b) { return b.chacha_crypt != nullptr; }},
    {"hchacha", "chacha", false, [](const lockstep_backend& b) { return b.hchacha != nullptr; }},
};

bool valid_name(std::string_view n) {
  return !n.empty() && std::all_of(n.begin(), n.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::strchr("-_.:", c) != nullptr;
  });
}

std::string field(size_t i, std::string_view name) {
  return "backends[" + std::to_string(i) + "]." + std::string(name);
}

// cipher_driver: a chacha backend's, for xchacha20, with its function, 12
// or 20 rounds and the kernel's 32-byte IV; only where the module runs it.
void check_cipher_driver(const std::string& file, size_t i, const lockstep_backend& b) {
  const lockstep_cipher_driver& d = *b.cipher_driver;
  const std::string name = field(i, "cipher_driver");
  if (std::string_view(b.family) != "chacha") fail(file, name + " is set on a " + b.family + " backend");
  if (b.algorithms == nullptr || std::string_view(b.algorithms) != "xchacha20")
    fail(file, name + " needs algorithms to be \"xchacha20\"");
  if (b.unavailable != nullptr) fail(file, name + " is set on a backend the module marks unavailable");
  if (d.crypt == nullptr) fail(file, name + "->crypt is null");
  if (d.nrounds != 12 && d.nrounds != 20) fail(file, name + "->nrounds: " + std::to_string(d.nrounds) + " (12 or 20)");
  if (d.iv_size != 32) fail(file, name + "->iv_size: " + std::to_string(d.iv_size) + " (32, the kernel's XChaCha IV)");
}

// algorithms: names of the backend's own family, when given.
void check_algorithms(const std::string& file, size_t i, const lockstep_backend& b) {
  std::string_view list = b.algorithms ? b.algorithms : "";
  const std::string_view family = b.family;
  for (size_t at = 0; at < list.size();) {
    if (list[at] == ' ') {
      ++at;
      continue;
    }
    const std::string_view name = list.substr(at, list.find(' ', at) - at);
    at += name.size();
    const auto& known = family_algorithms(family);
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string names;
      for (std::string_view k : known) names += (names.empty() ? "" : " ") + std::string(k);
      fail(file, field(i, "algorithms") + ": '" + std::string(name) + "' is not a " + std::string(family) +
                     " algorithm (" + names + ")");
    }
  }
}

// hash_driver: a hash family's, with every function and a descriptor.
void check_hash_driver(const std::string& file, size_t i, const lockstep_backend& b) {
  const lockstep_hash_driver& d = *b.hash_driver;
  if (std::string_view(b.family) == "chacha") fail(file, field(i, "hash_driver") + " is set on a chacha backend");
  const std::string_view algorithms = b.algorithms ? b.algorithms : "";
  if (algorithms.empty() || algorithms.find(' ') != std::string_view::npos)
    fail(file, field(i, "hash_driver") + " needs algorithms to name its one algorithm");
  const std::pair<const char*, bool> functions[] = {
      {"init", d.init != nullptr},       {"update", d.update != nullptr},
      {"final", d.final != nullptr},     {"finup", d.finup != nullptr},
      {"digest", d.digest != nullptr},   {"export_state", d.export_state != nullptr},
      {"import_state", d.import_state != nullptr}};
  for (const auto& [name, set] : functions)
    if (!set) fail(file, field(i, "hash_driver->") + name + " is null");
  if (d.desc_size == 0 || d.state_size == 0 || d.digest_size == 0 || d.digest_size > 64)
    fail(file, field(i, "hash_driver") + ": desc_size and state_size must be set, digest_size 1 to 64");
}

// mac_driver: a SHA-2 backend's, for the one algorithm it is for, with
// every function and its sizes.
void check_mac_driver(const std::string& file, size_t i, const lockstep_backend& b) {
  const lockstep_mac_driver& d = *b.mac_driver;
  const std::string name = field(i, "mac_driver");
  if (std::string_view(b.family) == "chacha") fail(file, name + " is set on a chacha backend");
  if (b.algorithms == nullptr || std::string_view(b.algorithms).find(' ') != std::string_view::npos ||
      *b.algorithms == '\0')
    fail(file, name + " is set, and algorithms does not name the one algorithm it is HMAC of");
  const std::pair<const char*, bool> functions[] = {
      {"preparekey", d.preparekey != nullptr}, {"init", d.init != nullptr},
      {"init_usingrawkey", d.init_usingrawkey != nullptr}, {"update", d.update != nullptr},
      {"final", d.final != nullptr}, {"mac", d.mac != nullptr}, {"mac_usingrawkey", d.mac_usingrawkey != nullptr}};
  for (const auto& [fn, set] : functions)
    if (!set) fail(file, name + "->" + fn + " is null");
  if (d.key_size == 0 || d.desc_size == 0 || d.mac_size == 0 || d.mac_size > 64)
    fail(file, name + ": key_size and desc_size must be set, mac_size 1 to 64");
}

void check_backend(const std::string& file, size_t i, const lockstep_backend& b,
                   LoadedBackend& out) {
  if (b.family == nullptr) fail(file, field(i, "family") + " is null");
  const std::string_view family = b.family;
  if (std::find(std::begin(kFamilies), std::end(kFamilies), family) == std::end(kFamilies))
    fail(file, field(i, "family") + ": '" + std::string(family) +
                   "' is not a family modules can supply (sha256 sha512 chacha)");
  if (b.name == nullptr || !valid_name(b.name))
    fail(file, field(i, "name") + ": " + (b.name ? "'" + std::string(b.name) + "'" : "null") +
                   " is not a name (letters, digits and -_.: only)");
  for (const Function& f : kFunctions) {
    // A whole-message cipher driver stands in for the ChaCha function.
    const bool stood_in = f.field == "chacha_crypt" && b.cipher_driver != nullptr;
    if (f.family == family && f.required && !f.set(b) && !stood_in)
      fail(file, field(i, f.field) + " is null, and a " + std::string(family) + " backend needs it");
    if (f.family != family && f.set(b))
      fail(file, field(i, f.field) + " is set on a " + std::string(family) + " backend");
  }
  if (b.chacha_counter != LOCKSTEP_COUNTER_WRAP32 && b.chacha_counter != LOCKSTEP_COUNTER_CARRY64)
    fail(file, field(i, "chacha_counter") + ": " + std::to_string(b.chacha_counter) +
                   " is not a lockstep_chacha_counter");
  if ((b.chacha_rounds & ~(LOCKSTEP_ROUNDS_12 | LOCKSTEP_ROUNDS_20)) != 0)
    fail(file, field(i, "chacha_rounds") + ": only LOCKSTEP_ROUNDS_12 and _20 are defined");
  if (family != "chacha" && (b.chacha_counter != 0 || b.chacha_rounds != 0))
    fail(file, field(i, "chacha_counter") + " and chacha_rounds are for chacha backends");
  if (b.chacha_overlap != LOCKSTEP_OVERLAP_ANY && b.chacha_overlap != LOCKSTEP_OVERLAP_INPLACE &&
      b.chacha_overlap != LOCKSTEP_OVERLAP_NONE)
    fail(file, field(i, "chacha_overlap") + ": " + std::to_string(b.chacha_overlap) +
                   " is not a lockstep_chacha_overlap");
  if (family != "chacha" && b.chacha_overlap != 0)
    fail(file, field(i, "chacha_overlap") + " is for chacha backends");
  check_algorithms(file, i, b);
  if (b.hash_driver != nullptr) check_hash_driver(file, i, b);
  if (b.cipher_driver != nullptr) check_cipher_driver(file, i, b);
  if (b.mac_driver != nullptr) check_mac_driver(file, i, b);
  if (b.kunit != nullptr && (b.kunit->name == nullptr || !valid_name(b.kunit->name) || b.kunit->run == nullptr))
    fail(file, field(i, "kunit") + ": a suite needs a name (letters, digits and -_.: only) and run");

  std::string_view needs = b.needs ? b.needs : "";
  while (!needs.empty()) {
    const size_t start = needs.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    needs.remove_prefix(start);
    const std::string_view token = needs.substr(0, needs.find(' '));
    needs.remove_prefix(token.size());
    const auto f = cpu::parse_feature(token);
    if (!f)
      fail(file, field(i, "needs") + ": unknown feature '" + std::string(token) + "' (known on " +
                     std::string(cpu::arch_name(cpu::build_arch())) + ": " +
                     cpu::known_feature_names() + ")");
    if (cpu::is_preference(*f))
      fail(file, field(i, "needs") + ": '" + std::string(token) +
                     "' is a preference, not something code can need");
    out.needs.add(*f);
  }
  out.full_name = std::string(family) + "/" + b.name;
  out.notes = b.notes ? b.notes : "";
  out.unavailable = b.unavailable ? b.unavailable : "";
  if (b.cipher_driver != nullptr && b.chacha_crypt == nullptr)
    out.unavailable = "not applicable: " + std::string(family) + "/" + b.name +
                      " is a whole-message XChaCha driver (module.h's cipher_driver), with no ChaCha function "
                      "of a derived key to call: conformance's CipherDriverConformance drives it";
  out.broken = b.broken ? b.broken : "";
  out.algorithms = b.algorithms ? b.algorithms : "";
  out.c = &b;
}

void load(const std::string& file, std::deque<LoadedBackend>& out) {
  std::string error;
  const std::string arch = elf_arch(file, &error);
  if (!error.empty()) fail(file, error);
  if (arch != cpu::arch_name(cpu::build_arch()))
    fail(file, "built for " + (arch.empty() ? std::string("another architecture") : arch) +
                   ", and this lockstep runs on " + std::string(cpu::arch_name(cpu::build_arch())));
  // RTLD_NOW: an unresolved symbol is a load error here, not a crash mid-check.
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) fail(file, std::string("cannot load: ") + dlerror());
  using Entry = const lockstep_module* (*)();
  const auto entry = reinterpret_cast<Entry>(dlsym(handle, "lockstep_module_v1"));
  if (entry == nullptr)
    fail(file, "no entry function lockstep_module_v1 (is it exported, with C linkage?)");
  // Kernel code (lockstep/kernel_compat.h) asks the kernel environment;
  // it is there before the entry function, which may run the glue's init.
  auto* host = static_cast<const lockstep_kernel_host**>(dlsym(handle, "lockstep_kernel_host_v1"));
  if (host) *host = kernel::host();
  kernel::begin_module_init(file);
  const lockstep_module* m = entry();
  kernel::end_module_init();
  if (m == nullptr) fail(file, "lockstep_module_v1 returned null");
  const size_t stride = backend_stride(m->abi_version);
  if (stride == 0)
    fail(file, "abi_version: " + std::to_string(m->abi_version) + ", and this lockstep knows 1 to " +
                   std::to_string(LOCKSTEP_MODULE_ABI_VERSION));
  if (m->name == nullptr || !valid_name(m->name)) fail(file, "name: missing or not a name");
  if (m->backend_count > 0 && m->backends == nullptr)
    fail(file, "backends is null, and backend_count is " + std::to_string(m->backend_count));
  const auto* elements = reinterpret_cast<const unsigned char*>(m->backends);
  for (size_t i = 0; i < m->backend_count; ++i) {
    lockstep_backend& wide = widened().emplace_back();  // value-initialised: all 0
    std::memcpy(&wide, elements + i * stride, stride);
    LoadedBackend b;
    b.file = file;
    b.module = m->name;
    b.kernel_environment = host != nullptr;
    check_backend(file, i, wide, b);
    for (const LoadedBackend& other : out)
      if (other.full_name == b.full_name)
        fail(file, field(i, "name") + ": " + b.full_name + " is already a backend of module " +
                       other.file);
    out.push_back(std::move(b));
  }
  // same_code_as names a driver of this module's, of the same family.
  for (size_t i = 0; i < m->backend_count; ++i) {
    const lockstep_backend& b = *out[out.size() - m->backend_count + i].c;
    if (b.same_code_as == nullptr) continue;
    if (b.hash_driver == nullptr) fail(file, field(i, "same_code_as") + " is set on a backend with no hash_driver");
    const std::string self = std::string(b.family) + "/" + b.name, other = std::string(b.family) + "/" + b.same_code_as;
    const bool found = std::any_of(out.end() - static_cast<std::ptrdiff_t>(m->backend_count), out.end(),
                                   [&](const LoadedBackend& o) {
                                     return o.full_name == other && other != self && o.c->hash_driver != nullptr;
                                   });
    if (!found)
      fail(file, field(i, "same_code_as") + ": '" + b.same_code_as + "' is not another backend of the module's " +
                     b.family + " family with a hash_driver");
  }
}

}  // namespace

void fail(std::string_view file, std::string_view what) {
  std::fprintf(stderr, "lockstep: module %.*s: %.*s\n", static_cast<int>(file.size()), file.data(),
               static_cast<int>(what.size()), what.data());
  std::exit(2);
}

std::string elf_arch(const std::string& file, std::string* error) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    *error = "cannot open it (no such file, or not readable)";
    return "";
  }
  Elf64_Ehdr h{};
  in.read(reinterpret_cast<char*>(&h), sizeof h);
  if (in.gcount() < EI_NIDENT || std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0) {
    *error = "not a shared object (no ELF header)";
    return "";
  }
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB ||
      arch_of_machine(h.e_machine).empty()) {
    *error = "built for another architecture (ELF machine " + std::to_string(h.e_machine) +
             "; lockstep loads x86_64 and arm64 modules)";
    return "";
  }
  if (h.e_type != ET_DYN) {
    *error = "not a shared object (an ELF file of type " + std::to_string(h.e_type) +
             "; build it with -shared -fPIC)";
    return "";
  }
  return std::string(arch_of_machine(h.e_machine));
}

std::span<const LoadedBackend> backends() {
  static const std::vector<LoadedBackend> all = [] {
    std::deque<LoadedBackend> loaded;
    const char* env = std::getenv(kEnvVar.data());
    std::string_view list = env ? env : "";
    while (!list.empty()) {
      const std::string_view file = list.substr(0, list.find(':'));
      list.remove_prefix(std::min(list.size(), file.size() + 1));
      if (!file.empty()) load(std::string(file), loaded);
    }
    return std::vector<LoadedBackend>(loaded.begin(), loaded.end());
  }();
  return all;
}

std::span<const LoadedBackend* const> backends_of(std::string_view family) {
  static const std::vector<std::vector<const LoadedBackend*>> by_family = [] {
    std::vector<std::vector<const LoadedBackend*>> out(std::size(kFamilies));
    for (const LoadedBackend& b : backends()) {
      const std::string_view f = std::string_view(b.full_name).substr(0, b.full_name.find('/'));
      const auto at = std::find(std::begin(kFamilies), std::end(kFamilies), f);
      if (at != std::end(kFamilies)) out[static_cast<size_t>(at - std::begin(kFamilies))].push_back(&b);
    }
    return out;
  }();
  const auto at = std::find(std::begin(kFamilies), std::end(kFamilies), family);
  if (at == std::end(kFamilies)) return {};
  return by_family[static_cast<size_t>(at - std::begin(kFamilies))];
}

}  // namespace lockstep::module
