#include "isa/arm64_scan.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <capstone/capstone.h>
#include <fmt/format.h>

#include "isa/arm64_classify.h"
#include "isa/elf_functions.h"

namespace lockstep::isa {
namespace {

using Function = ElfFunction;

// What the file holds: its executable segments' bytes, its functions, and
// its data mapping symbols ($d: a literal pool inside a function is data).
struct File {
  struct Segment {
    std::uint64_t vaddr = 0, offset = 0, size = 0;
  };
  std::vector<std::uint8_t> bytes;
  std::vector<Segment> text;
  ElfSymbols symbols;
  std::map<std::uint64_t, std::uint64_t> slots;  // GOT slot -> the function of this file it binds

  const std::uint8_t* at(std::uint64_t a, std::uint64_t n) const {
    for (const Segment& s : text)
      if (a >= s.vaddr && a + n <= s.vaddr + s.size && s.offset + (a - s.vaddr) + n <= bytes.size())
        return bytes.data() + s.offset + (a - s.vaddr);
    return nullptr;
  }
  const Function* function_at(std::uint64_t a) const { return isa::function_at(symbols.functions, a); }
  bool data_at(std::uint64_t a) const {
    const auto& map = symbols.mapping;
    auto it = std::upper_bound(map.begin(), map.end(), std::pair<std::uintptr_t, bool>{a, true});
    return it != map.begin() && std::prev(it)->second;
  }
};

std::string read_file(const std::string& path, File* f) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot open " + path;
  f->bytes.assign(std::istreambuf_iterator<char>(in), {});
  if (elf_version(EV_CURRENT) == EV_NONE) return "libelf: " + std::string(elf_errmsg(-1));
  Elf* elf = elf_memory(reinterpret_cast<char*>(f->bytes.data()), f->bytes.size());
  GElf_Ehdr eh;
  if (elf == nullptr || gelf_getehdr(elf, &eh) == nullptr) {
    if (elf) elf_end(elf);
    return path + " is not an ELF file";
  }
  if (eh.e_machine != EM_AARCH64) {
    elf_end(elf);
    return fmt::format("{} is not AArch64 code (e_machine {})", path, eh.e_machine);
  }
  size_t n = 0;
  elf_getphdrnum(elf, &n);
  for (size_t i = 0; i < n; ++i) {
    GElf_Phdr p;
    if (gelf_getphdr(elf, static_cast<int>(i), &p) && p.p_type == PT_LOAD && (p.p_flags & PF_X))
      f->text.push_back({p.p_vaddr, p.p_offset, p.p_filesz});
  }
  // A relocatable object (the unit test's) has no segments: its sections
  // stand at address 0 each, so only a single .text is read there.
  for (Elf_Scn* scn = nullptr; n == 0 && (scn = elf_nextscn(elf, scn)) != nullptr;) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR) && f->text.empty())
      f->text.push_back({sh.sh_addr, sh.sh_offset, sh.sh_size});
  }
  f->symbols = read_elf_symbols(elf);
  // A shared object calls its own global functions through its PLT: the
  // GOT slots that JUMP_SLOT and GLOB_DAT relocations bind to a function
  // this file defines. (Another object could interpose it; a module's
  // entry points are its own.)
  for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn)) != nullptr;) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) == nullptr || sh.sh_type != SHT_RELA || sh.sh_entsize == 0) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    Elf_Data* syms = elf_getdata(elf_getscn(elf, sh.sh_link), nullptr);
    for (size_t i = 0; data && syms && i < sh.sh_size / sh.sh_entsize; ++i) {
      GElf_Rela r;
      GElf_Sym sym;
      if (gelf_getrela(data, static_cast<int>(i), &r) == nullptr) continue;
      const auto type = GELF_R_TYPE(r.r_info);
      if ((type != R_AARCH64_JUMP_SLOT && type != R_AARCH64_GLOB_DAT) ||
          gelf_getsym(syms, static_cast<int>(GELF_R_SYM(r.r_info)), &sym) == nullptr)
        continue;
      if (GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx != SHN_UNDEF) f->slots[r.r_offset] = sym.st_value;
    }
  }
  elf_end(elf);
  return {};
}

std::string base_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The target of a direct branch, if `insn` is one; `indirect` is set for
// br/blr, whose target is in a register. (ret returns; it is neither.)
std::optional<std::uint64_t> branch_target(const cs_insn& insn, bool* indirect) {
  switch (insn.id) {
    case ARM64_INS_B: case ARM64_INS_BL: case ARM64_INS_CBZ: case ARM64_INS_CBNZ:
    case ARM64_INS_TBZ: case ARM64_INS_TBNZ: {
      const cs_arm64& a = insn.detail->arm64;
      for (int i = a.op_count - 1; i >= 0; --i)
        if (a.operands[i].type == ARM64_OP_IMM) return static_cast<std::uint64_t>(a.operands[i].imm);
      return std::nullopt;
    }
    case ARM64_INS_BR: case ARM64_INS_BLR:
      *indirect = true;
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// Where a PLT stub at `a` (no symbol of its own) leads, if to a function
// of this file: the stub loads its GOT slot (adrp x16, page; ldr x17,
// [x16, #off]) and branches to it.
std::optional<std::uint64_t> through_plt(csh cs, cs_insn* insn, const File& file, std::uint64_t a) {
  std::optional<std::uint64_t> page;
  unsigned base = ARM64_REG_INVALID;
  for (int i = 0; i < 4; ++i, a += 4) {
    const std::uint8_t* p = file.at(a, 4);
    size_t left = 4;
    std::uint64_t at = a;
    if (p == nullptr || !cs_disasm_iter(cs, &p, &left, &at, insn)) return std::nullopt;
    const cs_arm64& d = insn->detail->arm64;
    if (insn->id == ARM64_INS_ADRP && d.op_count == 2 && d.operands[1].type == ARM64_OP_IMM) {
      page = static_cast<std::uint64_t>(d.operands[1].imm);
      base = d.operands[0].reg;
    } else if (insn->id == ARM64_INS_LDR && page && d.op_count == 2 && d.operands[1].type == ARM64_OP_MEM &&
               d.operands[1].mem.base == base) {
      const auto slot = file.slots.find(*page + static_cast<std::uint64_t>(d.operands[1].mem.disp));
      return slot == file.slots.end() ? std::nullopt : std::optional<std::uint64_t>(slot->second);
    }
  }
  return std::nullopt;
}

}  // namespace

Scan scan_arm64_file(const std::string& path, std::span<const std::uint64_t> entries, size_t max_functions) {
  Scan out;
  File file;
  if (std::string err = read_file(path, &file); !err.empty()) {
    out.problems.push_back(err);
    return out;
  }
  csh cs;
  if (cs_open(CS_ARCH_ARM64, CS_MODE_LITTLE_ENDIAN, &cs) != CS_ERR_OK) {
    out.problems.push_back("Capstone could not set up an AArch64 decoder");
    return out;
  }
  cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
  const std::string name = base_name(path);
  std::deque<const Function*> queue;
  std::set<std::uint64_t> seen;
  cs_insn* insn = cs_malloc(cs);
  cs_insn* stub = cs_malloc(cs);  // a PLT stub's, while `insn` is the branch to it
  auto enqueue = [&](std::uint64_t a, bool entry) {
    const Function* f = file.function_at(a);
    if (f == nullptr && !entry)
      if (const auto to = through_plt(cs, stub, file, a)) f = file.function_at(*to);
    if (f == nullptr) {
      if (entry) out.problems.push_back(fmt::format("no function symbol covers the entry at {:#x} in {}", a, name));
      else ++out.external_calls;
      return;
    }
    if (seen.insert(f->start).second) queue.push_back(f);
  };
  for (const std::uint64_t e : entries) enqueue(e, true);

  size_t undecoded = 0;
  while (!queue.empty() && out.functions.size() < max_functions) {
    const Function& fn = *queue.front();
    queue.pop_front();
    out.functions.push_back(fmt::format("{} in {}", fn.name, name));
    for (std::uint64_t at = fn.start; at + 4 <= fn.start + fn.size; at += 4) {
      const std::uint8_t* code = file.at(at, 4);
      if (code == nullptr) {
        out.problems.push_back(fmt::format("{}+{:#x} in {}: outside the executable segments", fn.name, at - fn.start, name));
        break;
      }
      if (file.data_at(at)) continue;
      const std::uint8_t* p = code;
      size_t left = 4;
      std::uint64_t address = at;
      std::string text;
      std::vector<std::string> needs;
      if (cs_disasm_iter(cs, &p, &left, &address, insn)) {
        needs = detail::arm64_extensions_of(cs, *insn);
        if (!needs.empty()) text = fmt::format("{} {}", insn->mnemonic, insn->op_str);
        bool indirect = false;
        if (const auto target = branch_target(*insn, &indirect))
          if (*target < fn.start || *target >= fn.start + fn.size) enqueue(*target, false);
        if (indirect) ++out.indirect_calls;
      } else {
        std::uint32_t word;
        std::memcpy(&word, code, 4);  // AArch64 code is little-endian; so is the host
        const detail::Arm64Unknown u = detail::arm64_decode_unknown(word);
        if (u.mnemonic.empty()) {
          // Fixed-width code: the next word still decodes, so one unknown
          // word is noted and the read goes on.
          if (++undecoded <= 8)
            out.problems.push_back(fmt::format("{}+{:#x} in {}: word {:#010x} Capstone cannot decode", fn.name,
                                               at - fn.start, name, word));
          continue;
        }
        text = fmt::format("{} (word {:#010x}, by its encoding: Capstone 4 predates it)", u.mnemonic, word);
        needs = {std::string(u.extension)};
      }
      ++out.instructions;
      for (const std::string& ext : needs)
        out.uses.try_emplace(ext, Use{text, static_cast<std::uintptr_t>(at),
                                      fmt::format("{}+{:#x} in {}", fn.name, at - fn.start, name)});
    }
  }
  cs_free(insn, 1);
  cs_free(stub, 1);
  cs_close(&cs);
  if (undecoded > 8) out.problems.push_back(fmt::format("{} undecodable words in all", undecoded));
  if (!queue.empty())
    out.problems.push_back(fmt::format("stopped after {} functions; {} more not read", max_functions, queue.size()));
  return out;
}

}  // namespace lockstep::isa
