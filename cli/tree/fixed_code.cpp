#include "fixed_code.h"

#include "read_text.h"

#include <fmt/format.h>

#include <fstream>
#include <functional>
#include <sstream>

#include "process.h"

namespace lockstep::cli::tree {
namespace {

namespace fs = std::filesystem;

// Runs a tool, its output to `log`; "" or what went wrong, with the output.
std::string run_tool(const std::vector<std::string>& argv, const fs::path& log) {
  const ProcessResult r = run_process(argv, {}, log.string());
  if (r.error.empty() && r.status == 0) return "";
  return argv.front() + ": " + (r.error.empty() ? read_text(log) : r.error);
}

// Where a module's image goes: one of 7,000 slots of 256 KiB between
// 256 MiB and 2 GiB, by the module's path, so that the modules a run loads
// together do not ask for the same addresses.
constexpr uint64_t kSlotBytes = 256 * 1024;
uint64_t base_for(const fs::path& dir, const std::string& stem) {
  constexpr uint64_t kFirst = 0x10000000, kSlots = (0x7ff00000 - kFirst) / kSlotBytes;
  return kFirst + std::hash<std::string>{}((dir / stem).string()) % kSlots * kSlotBytes;
}

}  // namespace

FixedCode place_fixed_code(const std::string& cc, const std::vector<std::string>& flags,
                           const std::vector<std::string>& sources, const fs::path& dir, const std::string& stem,
                           const fs::path& support) {
  FixedCode out;
  const fs::path work = dir / (stem + ".fixed");
  std::error_code ec;
  fs::create_directories(work, ec);
  const std::string readelf = find_program("readelf"), nm = find_program("nm");
  if (readelf.empty() || nm.empty()) {
    out.error = "readelf and nm (binutils) are needed to place it";
    return out;
  }
  std::vector<std::string> fixed;
  for (size_t i = 0; i < sources.size(); ++i) {
    const std::string object = (work / (std::to_string(i) + ".o")).string();
    std::vector<std::string> argv = {cc, "-c"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {"-o", object, sources[i]});
    if (std::string e = run_tool(argv, work / "compile.log"); !e.empty()) {
      out.error = e;
      return out;
    }
    const fs::path relocations = work / (std::to_string(i) + ".relocations");
    if (std::string e = run_tool({readelf, "-rW", object}, relocations); !e.empty()) {
      out.error = e;
      return out;
    }
    const std::string text = read_text(relocations);
    const bool absolute = text.find("R_X86_64_32S ") != std::string::npos ||
                          text.find("R_X86_64_32 ") != std::string::npos;
    (absolute ? fixed : out.inputs).push_back(absolute ? object : sources[i]);
  }
  if (fixed.empty()) {
    out.error = "no object of its own has a 32-bit absolute relocation";
    return out;
  }

  // The image: those objects alone, linked where the kernel's code model
  // can address them. A call out of them has nothing to resolve against:
  // the link fails, naming the symbol.
  const uint64_t base = base_for(dir, stem);
  const fs::path image = work / "image.elf";
  std::vector<std::string> link = {cc, "-nostdlib", "-static", "-no-pie", "-Wl,-e,0", "-Wl,-z,noexecstack",
                                   "-Wl,--build-id=none", fmt::format("-Wl,-Ttext-segment={:#x}", base),
                                   "-o", image.string()};
  link.insert(link.end(), fixed.begin(), fixed.end());
  if (std::string e = run_tool(link, work / "link.log"); !e.empty()) {
    out.error = "linking it at a fixed address: " + e;
    return out;
  }
  if (fs::file_size(image, ec) > kSlotBytes) {
    out.error = "its fixed-address image is larger than the " + std::to_string(kSlotBytes / 1024) + " KiB lockstep gives one";
    return out;
  }

  // Each global function of the image, reached by a jump to its address.
  const fs::path symbols = work / "symbols.txt";
  if (std::string e = run_tool({nm, "--defined-only", "-g", image.string()}, symbols); !e.empty()) {
    out.error = e;
    return out;
  }
  std::string jumps = fmt::format(
      "/* Written by lockstep tree: the image of {} linked at {:#x}, and a jump to each of its functions. */\n"
      "\t.section .rodata\n\t.balign 16\n\t.globl lockstep_fixed_image\n\t.hidden lockstep_fixed_image\n"
      "lockstep_fixed_image:\n\t.incbin \"{}\"\n\t.text\n",
      stem, base, image.string());
  std::istringstream lines(read_text(symbols));
  for (std::string address, kind, name; lines >> address >> kind >> name;) {
    if (kind != "T") continue;
    jumps += fmt::format("\t.globl {0}\n\t.type {0}, @function\n{0}:\n\tmovabsq $0x{1}, %rax\n\tjmp *%rax\n"
                         "\t.size {0}, .-{0}\n",
                         name, address);
  }
  jumps += "\t.section .note.GNU-stack,\"\",@progbits\n";
  const fs::path jumps_file = work / "jumps.S";
  std::ofstream(jumps_file) << jumps;
  out.inputs.push_back(jumps_file.string());
  out.inputs.push_back((support / "fixed_code.c").string());
  out.inputs.push_back("-DLOCKSTEP_FIXED_MODULE=\"" + stem + "\"");
  return out;
}

}  // namespace lockstep::cli::tree
