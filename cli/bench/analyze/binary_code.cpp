#include "bench/analyze/binary_code.h"

#include <cxxabi.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <regex>

#include <fmt/format.h>

#include "bench/analyze/hot_loop.h"

namespace lockstep::cli::analyze {
namespace {

std::string demangle(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                &std::free);
  return status == 0 && d ? std::string(d.get()) : name;
}

}  // namespace

FoundLoop no_loop(std::string problem) {
  FoundLoop f;
  f.problem = std::move(problem);
  return f;
}

BinaryCode::BinaryCode(std::string path) : path_(std::move(path)), functions_(isa::read_elf_functions(path_)) {
  demangled_.reserve(functions_.size());
  for (const isa::ElfFunction& f : functions_) demangled_.push_back(demangle(f.name));
}

FoundLoop BinaryCode::hot_loop(const HotLoopRow& row) const {
  const std::regex symbol{std::string(row.symbol)};
  std::ifstream file(path_, std::ios::binary);
  FoundLoop best;
  std::vector<std::string> problems;
  size_t matched = 0;
  for (size_t k = 0; k < functions_.size(); ++k) {
    const isa::ElfFunction& f = functions_[k];
    if ((!row.file.empty() && f.file != row.file) || !std::regex_search(demangled_[k], symbol)) continue;
    ++matched;
    std::vector<std::uint8_t> code(f.size);
    file.clear();
    file.seekg(static_cast<std::streamoff>(f.file_offset));
    if (f.file_offset == 0 || !file.read(reinterpret_cast<char*>(code.data()), static_cast<std::streamsize>(f.size))) {
      problems.push_back(fmt::format("cannot read {}'s bytes", demangled_[k]));
      continue;
    }
    const Disassembly d = disassemble(code, f.start);
    // Code after undecodable bytes is unread: its loop could be the hot one.
    if (!d.problem.empty()) {
      problems.push_back(fmt::format("{} in {}", d.problem, demangled_[k]));
      continue;
    }
    const std::optional<Loop> loop = analyze::hot_loop(d);
    if (loop && loop->size() > best.instructions)
      best = {demangled_[k], d.instructions[loop->first].address, loop->size(), loop_assembly(d, *loop), ""};
  }
  if (!problems.empty()) return no_loop(problems.front());
  if (matched == 0)
    return no_loop(fmt::format("no function matches /{}/{}", row.symbol,
                               row.file.empty() ? "" : fmt::format(" in {}", row.file)));
  if (best.assembly.empty())
    return no_loop(fmt::format("no loop in the {} function(s) matching /{}/", matched, row.symbol));
  return best;
}

}  // namespace lockstep::cli::analyze
