// Function bounds come from the ELF symbol tables of the objects loaded in
// this process (the executable, lockstep's modules), read with libelf
// (elf_functions.h); the bytes are read from memory, where they run.
#include <link.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "isa/classify.h"
#include "isa/elf_functions.h"
#include "isa/isa.h"

namespace lockstep::isa {
namespace {

using Function = ElfFunction;

// Object is one loaded ELF file: its executable ranges and its functions,
// at their run-time addresses, sorted by start.
struct Object {
  std::string path;
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> text;  // [begin, end)
  std::vector<Function> functions;

  bool contains(std::uintptr_t a) const {
    return std::any_of(text.begin(), text.end(), [&](const auto& r) { return a >= r.first && a < r.second; });
  }
  const Function* function_at(std::uintptr_t a) const { return isa::function_at(functions, a); }
};

// Every loaded object, read once per process (modules stay loaded).
const std::vector<Object>& objects() {
  static std::vector<Object> all;
  static std::once_flag once;
  std::call_once(once, [] {
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void*) {
          Object o;
          o.path = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe";
          for (int i = 0; i < info->dlpi_phnum; ++i) {
            const ElfW(Phdr)& p = info->dlpi_phdr[i];
            if (p.p_type == PT_LOAD && (p.p_flags & PF_X))
              o.text.emplace_back(info->dlpi_addr + p.p_vaddr, info->dlpi_addr + p.p_vaddr + p.p_memsz);
          }
          if (!o.text.empty() && o.path.find("linux-vdso") == std::string::npos) {
            o.functions = read_elf_functions(o.path, info->dlpi_addr);
            all.push_back(std::move(o));
          }
          return 0;
        },
        nullptr);
  });
  return all;
}

// A sanitizer's runtime, linked into an instrumented executable: every
// instrumented function calls into it; it is not the backend's code.
bool sanitizer_runtime(const std::string& name) {
  for (const char* prefix : {"__asan", "__ubsan", "__sanitizer", "__lsan", "__interceptor", "___interceptor", "__sancov"})
    if (name.starts_with(prefix)) return true;
  return false;
}

struct Found {
  const Object* object = nullptr;
  const Function* function = nullptr;
};

Found find(std::uintptr_t a) {
  for (const Object& o : objects())
    if (o.contains(a)) return {&o, o.function_at(a)};
  return {};
}

std::string file_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  return path == "/proc/self/exe" ? "the executable" : slash == std::string::npos ? path : path.substr(slash + 1);
}

// The target of a call or jump, if `insn` is one whose target is known
// before it runs: an immediate, or a pointer loaded RIP-relative (a GOT
// slot: modules are loaded RTLD_NOW, so it holds the final address).
// `indirect` is set for one through a register or other memory.
std::optional<std::uintptr_t> branch_target(const ZydisDecodedInstruction& insn, const ZydisDecodedOperand* ops,
                                            std::uint64_t at, bool* indirect) {
  const ZydisInstructionCategory c = insn.meta.category;
  if (c != ZYDIS_CATEGORY_CALL && c != ZYDIS_CATEGORY_UNCOND_BR && c != ZYDIS_CATEGORY_COND_BR) return std::nullopt;
  ZyanU64 target = 0;
  if (insn.operand_count_visible >= 1 && ops[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
      ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&insn, &ops[0], at, &target)))
    return static_cast<std::uintptr_t>(target);
  if (insn.operand_count_visible >= 1 && ops[0].type == ZYDIS_OPERAND_TYPE_MEMORY &&
      ops[0].mem.base == ZYDIS_REGISTER_RIP && ops[0].mem.index == ZYDIS_REGISTER_NONE &&
      ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&insn, &ops[0], at, &target))) {
    std::uintptr_t slot;
    std::memcpy(&slot, reinterpret_cast<const void*>(target), sizeof slot);
    return slot;
  }
  *indirect = true;
  return std::nullopt;
}

// Where a PLT stub at `a` (no symbol of its own) jumps: its few
// instructions end in a jump through its GOT slot.
std::optional<std::uintptr_t> through_plt(const ZydisDecoder& d, const Object& o, std::uintptr_t a) {
  for (int i = 0; i < 4 && o.contains(a); ++i) {
    ZydisDecodedInstruction insn;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&d, reinterpret_cast<const void*>(a), 16, &insn, ops))) break;
    bool indirect = false;
    if (insn.meta.category == ZYDIS_CATEGORY_UNCOND_BR) return branch_target(insn, ops, a, &indirect);
    a += insn.length;
  }
  return std::nullopt;
}

std::string text_of(const ZydisFormatter& f, const ZydisDecodedInstruction& insn, const ZydisDecodedOperand* ops,
                    std::uint64_t at) {
  char buf[160];
  if (!ZYAN_SUCCESS(ZydisFormatterFormatInstruction(&f, &insn, ops, insn.operand_count_visible, buf, sizeof buf, at,
                                                    ZYAN_NULL)))
    return "?";
  return buf;
}

}  // namespace

Scan scan(std::span<const void* const> entries, size_t max_functions) {
  Scan out;
  ZydisDecoder decoder;
  ZydisFormatter formatter;
  if (!ZYAN_SUCCESS(ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) ||
      !ZYAN_SUCCESS(ZydisFormatterInit(&formatter, ZYDIS_FORMATTER_STYLE_ATT))) {
    out.problems.push_back("Zydis could not set up an x86-64 decoder");
    return out;
  }
  // Only the entries' own objects are followed: a module's code, not the
  // C library or lockstep's kernel host it calls into.
  std::deque<Found> queue;
  std::set<std::uintptr_t> seen;
  std::set<const Object*> own;
  auto enqueue = [&](std::uintptr_t a, bool entry) {
    Found f = find(a);
    if (!entry && f.object != nullptr && f.function == nullptr)
      if (const auto to = through_plt(decoder, *f.object, a)) f = find(*to);
    if (entry && f.object) own.insert(f.object);
    if (f.function == nullptr || !own.contains(f.object) || (!entry && sanitizer_runtime(f.function->name))) {
      if (entry) out.problems.push_back(fmt::format("no function symbol covers the entry at {:#x}", a));
      else ++out.external_calls;
      return;
    }
    if (seen.insert(f.function->start).second) queue.push_back(f);
  };
  for (const void* e : entries) enqueue(reinterpret_cast<std::uintptr_t>(e), true);

  while (!queue.empty() && out.functions.size() < max_functions) {
    const Found f = queue.front();
    queue.pop_front();
    const Function& fn = *f.function;
    const std::string file = file_name(f.object->path);
    out.functions.push_back(fmt::format("{} in {}", fn.name, file));
    const std::uint8_t* code = reinterpret_cast<const std::uint8_t*>(fn.start);
    for (size_t offset = 0; offset < fn.size;) {
      const std::uint64_t at = fn.start + offset;
      ZydisDecodedInstruction insn;
      ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
      std::string mnemonic;
      std::vector<std::string> needs;
      if (ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, code + offset, fn.size - offset, &insn, ops))) {
        needs = detail::extensions_of(insn);
        if (!needs.empty()) mnemonic = text_of(formatter, insn, ops, at);
        bool indirect = false;
        if (const auto target = branch_target(insn, ops, at, &indirect))
          if (*target < fn.start || *target >= fn.start + fn.size) enqueue(*target, false);
        if (indirect) ++out.indirect_calls;
        offset += insn.length;
      } else if (const detail::Unknown u = detail::decode_unknown(code + offset, fn.size - offset); u.length > 0) {
        mnemonic = u.mnemonic;
        needs = {u.extension};
        offset += u.length;
      } else {
        // Data or padding inside the symbol's bounds: nothing after it in
        // this function can be read reliably.
        out.problems.push_back(fmt::format("{}+{:#x} in {}: bytes Zydis cannot decode; the rest of the function "
                                           "not read", fn.name, offset, file));
        break;
      }
      ++out.instructions;
      for (const std::string& ext : needs)
        out.uses.try_emplace(ext, Use{mnemonic, static_cast<std::uintptr_t>(at),
                                      fmt::format("{}+{:#x} in {}", fn.name, at - fn.start, file)});
    }
  }
  if (!queue.empty())
    out.problems.push_back(fmt::format("stopped after {} functions; {} more not read", max_functions, queue.size()));
  return out;
}

}  // namespace lockstep::isa
