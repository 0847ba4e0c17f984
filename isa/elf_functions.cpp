#include "isa/elf_functions.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>

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

}  // namespace

std::vector<ElfFunction> read_elf_functions(const std::string& path, std::uintptr_t bias) {
  std::vector<ElfFunction> out;
  if (elf_version(EV_CURRENT) == EV_NONE) return out;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
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
        if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_size == 0 || sym.st_shndx == SHN_UNDEF) continue;
        out.push_back({bias + sym.st_value, sym.st_size, name ? name : "?",
                       GELF_ST_BIND(sym.st_info) == STB_LOCAL ? file : "", section_offset(elf, sym)});
      }
    }
    if (!out.empty()) break;
  }
  if (elf) elf_end(elf);
  close(fd);
  std::sort(out.begin(), out.end(), [](const ElfFunction& a, const ElfFunction& b) { return a.start < b.start; });
  return out;
}

}  // namespace lockstep::isa
