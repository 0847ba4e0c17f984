#include "isa/elf_functions.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <string_view>

namespace lockstep::isa {
namespace {

// section_offset is where `sym`'s bytes lie in the file, or 0 for a
// section without them (.bss) or a symbol outside any.
std::uint64_t section_offset(Elf* elf, const GElf_Sym& sym) {
  if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE) return 0;
  Elf_Scn* scn = elf_getscn(elf, sym.st_shndx);
  GElf_Shdr shdr;
  if (scn == nullptr || gelf_getshdr(scn, &shdr) == nullptr || shdr.sh_type == SHT_NOBITS) return 0;
  if (sym.st_value < shdr.sh_addr || sym.st_value - shdr.sh_addr >= shdr.sh_size) return 0;
  return shdr.sh_offset + (sym.st_value - shdr.sh_addr);
}

// A mapping symbol names no function: "$d" or "$d.<n>" where data begins,
// "$x" or "$x.<n>" where code does.
bool mapping_symbol(std::string_view name) {
  return name == "$d" || name.starts_with("$d.") || name == "$x" || name.starts_with("$x.");
}

}  // namespace

ElfSymbols read_elf_symbols(Elf* elf, std::uintptr_t bias) {
  ElfSymbols out;
  for (const Elf64_Word wanted : {SHT_SYMTAB, SHT_DYNSYM}) {
    for (Elf_Scn* scn = nullptr; elf && (scn = elf_nextscn(elf, scn)) != nullptr;) {
      GElf_Shdr shdr;
      if (gelf_getshdr(scn, &shdr) == nullptr || shdr.sh_type != wanted || shdr.sh_entsize == 0) continue;
      Elf_Data* data = elf_getdata(scn, nullptr);
      const size_t n = shdr.sh_size / shdr.sh_entsize;
      std::string file;  // the latest STT_FILE: locals follow their file's
      for (size_t i = 0; data && i < n; ++i) {
        GElf_Sym sym;
        if (gelf_getsym(data, static_cast<int>(i), &sym) == nullptr) continue;
        const char* name = elf_strptr(elf, shdr.sh_link, sym.st_name);
        if (GELF_ST_TYPE(sym.st_info) == STT_FILE) file = name ? name : "";
        if (sym.st_shndx == SHN_UNDEF) continue;
        if (GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_size > 0)
          out.functions.push_back({bias + sym.st_value, sym.st_size, name ? name : "?",
                                   GELF_ST_BIND(sym.st_info) == STB_LOCAL ? file : "", section_offset(elf, sym)});
        else if (name && mapping_symbol(name))
          out.mapping.emplace_back(bias + sym.st_value, name[1] == 'd');
      }
    }
    if (!out.functions.empty()) break;
  }
  std::sort(out.functions.begin(), out.functions.end(),
            [](const ElfFunction& a, const ElfFunction& b) { return a.start < b.start; });
  std::sort(out.mapping.begin(), out.mapping.end());
  return out;
}

std::vector<ElfFunction> read_elf_functions(const std::string& path, std::uintptr_t bias) {
  if (elf_version(EV_CURRENT) == EV_NONE) return {};
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  std::vector<ElfFunction> out = read_elf_symbols(elf, bias).functions;
  if (elf) elf_end(elf);
  close(fd);
  return out;
}

const ElfFunction* function_at(std::span<const ElfFunction> functions, std::uintptr_t address) {
  auto it = std::upper_bound(functions.begin(), functions.end(), address,
                             [](std::uintptr_t a, const ElfFunction& f) { return a < f.start; });
  while (it != functions.begin()) {
    --it;
    if (address >= it->start && address < it->start + it->size) return &*it;
    if (it->start + 4096 * 64 < address) break;  // symbols do not nest that far
  }
  return nullptr;
}

}  // namespace lockstep::isa
