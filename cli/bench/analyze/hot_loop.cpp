#include "bench/analyze/hot_loop.h"

#include <Zydis/Zydis.h>

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "isa/classify.h"

namespace lockstep::cli::analyze {
namespace {

// text_of formats `insn` in Intel syntax, without a direct branch's
// operand (loop_assembly supplies a label). No runtime address: RIP-relative
// operands stay relative, as an assembler reads them.
std::string text_of(const ZydisFormatter& f, const ZydisDecodedInstruction& insn, const ZydisDecodedOperand* ops,
                    bool drop_operands) {
  if (drop_operands) {
    const char* mnemonic = ZydisMnemonicGetString(insn.mnemonic);
    return mnemonic ? mnemonic : "?";
  }
  // A long NOP (alignment padding inside a loop, as clang pads) shows its
  // ModRM's reg field as an operand, "nop dword ptr [rax], eax", which
  // llvm-mc rejects; a plain nop costs llvm-mca the same, as it does not
  // model instruction fetch.
  if (insn.mnemonic == ZYDIS_MNEMONIC_NOP) return "nop";
  char buf[256];
  if (!ZYAN_SUCCESS(ZydisFormatterFormatInstruction(&f, &insn, ops, insn.operand_count_visible, buf, sizeof buf,
                                                    ZYDIS_RUNTIME_ADDRESS_NONE, ZYAN_NULL)))
    return "?";
  return buf;
}

std::string label(std::uint64_t address) { return fmt::format(".L{:x}", address); }

}  // namespace

Disassembly disassemble(std::span<const std::uint8_t> code, std::uint64_t address) {
  Disassembly out;
  ZydisDecoder decoder;
  ZydisFormatter formatter;
  if (!ZYAN_SUCCESS(ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) ||
      !ZYAN_SUCCESS(ZydisFormatterInit(&formatter, ZYDIS_FORMATTER_STYLE_INTEL)) ||
      // Every memory operand's size: Zydis leaves it out where it thinks
      // it evident (inc [rip+0x10]), which llvm-mc calls ambiguous.
      !ZYAN_SUCCESS(ZydisFormatterSetProperty(&formatter, ZYDIS_FORMATTER_PROP_FORCE_SIZE, ZYAN_TRUE))) {
    out.problem = "Zydis could not set up an x86-64 decoder";
    return out;
  }
  for (std::size_t offset = 0; offset < code.size();) {
    ZydisDecodedInstruction insn;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, code.data() + offset, code.size() - offset, &insn, ops))) {
      // Named where the isa check knows the encoding (Zydis 4.0 predates
      // the SHA512 extension); llvm-mca needs its operands all the same.
      const isa::detail::Unknown known = isa::detail::decode_unknown(code.data() + offset, code.size() - offset);
      out.problem = known.length ? fmt::format("{} at +{:#x}, which Zydis cannot decode", known.mnemonic, offset)
                                 : fmt::format("bytes at +{:#x} Zydis cannot decode", offset);
      break;
    }
    Instruction i;
    i.address = address + offset;
    i.length = insn.length;
    const ZydisInstructionCategory c = insn.meta.category;
    i.conditional_jump = c == ZYDIS_CATEGORY_COND_BR;
    i.returns = c == ZYDIS_CATEGORY_RET;
    const bool jump = c == ZYDIS_CATEGORY_COND_BR || c == ZYDIS_CATEGORY_UNCOND_BR;
    ZyanU64 target = 0;
    const bool direct = (jump || c == ZYDIS_CATEGORY_CALL) && insn.operand_count_visible == 1 &&
                        ops[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && ops[0].imm.is_relative &&
                        ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&insn, &ops[0], i.address, &target));
    if (direct) i.target = target;
    i.text = text_of(formatter, insn, ops, direct);
    out.instructions.push_back(std::move(i));
    offset += insn.length;
  }
  return out;
}

std::vector<Loop> innermost_loops(const Disassembly& d) {
  const auto& ins = d.instructions;
  std::vector<Loop> loops;
  for (std::size_t last = 0; last < ins.size(); ++last) {
    if (!ins[last].conditional_jump || !ins[last].target || *ins[last].target > ins[last].address) continue;
    const auto head = std::find_if(ins.begin(), ins.begin() + static_cast<std::ptrdiff_t>(last) + 1,
                                   [&](const Instruction& i) { return i.address == *ins[last].target; });
    // A jump into the middle of an instruction, or before the code: no loop of ours.
    if (head == ins.begin() + static_cast<std::ptrdiff_t>(last) + 1) continue;
    const auto end = ins.begin() + static_cast<std::ptrdiff_t>(last);
    if (std::any_of(head, end, [](const Instruction& i) { return i.returns; })) continue;
    loops.push_back({static_cast<std::size_t>(head - ins.begin()), last});
  }
  std::vector<Loop> innermost;
  for (const Loop& l : loops) {
    const bool holds_another = std::any_of(loops.begin(), loops.end(), [&](const Loop& o) {
      return (o.first != l.first || o.last != l.last) && o.first >= l.first && o.last <= l.last;
    });
    if (!holds_another) innermost.push_back(l);
  }
  std::sort(innermost.begin(), innermost.end(), [](const Loop& a, const Loop& b) { return a.first < b.first; });
  return innermost;
}

std::optional<Loop> hot_loop(const Disassembly& d) {
  std::optional<Loop> best;
  for (const Loop& l : innermost_loops(d))
    if (!best || l.size() > best->size()) best = l;
  return best;
}

std::string loop_assembly(const Disassembly& d, const Loop& loop) {
  const auto& ins = d.instructions;
  // Labels where a branch of the body lands on one of its instructions.
  std::set<std::uint64_t> starts, inside;
  for (std::size_t k = loop.first; k <= loop.last; ++k) starts.insert(ins[k].address);
  for (std::size_t k = loop.first; k <= loop.last; ++k)
    if (ins[k].target && starts.contains(*ins[k].target)) inside.insert(*ins[k].target);
  const std::string out_label = ".Lout";
  std::string s = ".intel_syntax noprefix\n";
  for (std::size_t k = loop.first; k <= loop.last; ++k) {
    if (inside.contains(ins[k].address)) s += label(ins[k].address) + ":\n";
    s += "\t" + ins[k].text;
    if (ins[k].target)
      s += " " + (inside.contains(*ins[k].target) ? label(*ins[k].target) : out_label);
    s += "\n";
  }
  return s + out_label + ":\n";
}

}  // namespace lockstep::cli::analyze
