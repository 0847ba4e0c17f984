#include "build.h"

#include "read_text.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <unistd.h>

#include "file_kind.h"
#include "process.h"
#include "assembler.h"
#include "fixed_code.h"

namespace lockstep::cli::tree {
namespace {

namespace fs = std::filesystem;

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// The compiler for an architecture: $CC (a name or a path) or cc for x86_64,
// the cross compiler for arm64.
std::string compiler_for(const std::string& arch) {
  std::string name = "aarch64-linux-gnu-gcc";
  if (arch == "x86_64") {
    const char* cc = std::getenv("CC");
    name = cc && *cc ? cc : "cc";
  }
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  return find_program(name);
}

// The first lines of the compiler's message, for the SKIP.
std::string head(const std::string& text, int lines) {
  std::stringstream in(text);
  std::string out;
  for (std::string line; lines > 0 && std::getline(in, line); --lines) out += "    " + line + "\n";
  return out;
}

// What a module is built from, as one line per input: the command, the
// adapter, and every file the compiler may read (the tree's directories of
// the glue and sources, lockstep's headers and support files) by size and
// modification time. The same text as last time: the module is current.
std::string inputs_of(const std::vector<std::string>& argv, const std::string& adapter, const fs::path& tree,
                      const ModuleRecipe& m, const fs::path& source_dir) {
  std::string out;
  for (const std::string& a : argv) out += a + "\n";
  out += std::to_string(std::hash<std::string>{}(adapter)) + "\n";
  std::vector<fs::path> dirs = {source_dir / "include", source_dir / "trees" / "support"};
  for (const std::string& f : m.files()) dirs.push_back(tree / fs::path(f).parent_path());
  std::sort(dirs.begin(), dirs.end());
  dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
  std::error_code ec;
  for (const fs::path& d : dirs) {
    // lockstep's own folders whole; the tree's without their subfolders.
    const bool in_tree = !d.lexically_relative(tree).empty() && *d.lexically_relative(tree).begin() != "..";
    std::vector<std::string> lines;
    for (auto it = fs::recursive_directory_iterator(d, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (in_tree && it.depth() > 0) continue;
      if (!it->is_regular_file(ec)) continue;
      const auto time = fs::last_write_time(it->path(), ec).time_since_epoch().count();
      lines.push_back(it->path().string() + " " + std::to_string(it->file_size(ec)) + " " + std::to_string(time));
    }
    std::sort(lines.begin(), lines.end());
    for (const std::string& l : lines) out += l + "\n";
  }
  return out;
}

// The name of m's function in this tree: the first of its names by era
// that one of its sources has as a whole word, else the first (whose
// link then says what is missing).
std::string function_in(const ModuleRecipe& m, const fs::path& tree) {
  if (m.functions.size() < 2) return m.function;
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (const std::string& name : m.functions)
    for (const std::string& source : m.sources) {
      const std::string text = read_text(tree / source);
      for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1))
        if ((at == 0 || !word(text[at - 1])) && (at + name.size() == text.size() || !word(text[at + name.size()])))
          return name;
    }
  return m.function;
}

// What build_module makes of a recipe's module: the module as the recipe
// says, or its library front end (with the tree's KUnit suites, or not).
enum class Kind { kAsRecipe, kFrontEnd, kFrontEndWithoutKunit };

Built build_module(const Recipe& r, const ModuleRecipe& m, const fs::path& tree, const fs::path& source_dir,
                   const fs::path& out_dir, const std::string& suffix, Kind kind) {
  const bool front_end = kind != Kind::kAsRecipe;
  const bool kunit = kind == Kind::kFrontEnd;
  Built b;
  b.front_end = front_end;
  const std::string name = m.row() + suffix;
  b.backend = m.family + "/" + name;
  // A crypto API module's rows are its drivers, "<name>:<cra_driver_name>".
  b.select = m.family + "/" + m.rows() + suffix;
  // A front end's rows: its own, and "<name>:<algorithm>" for the others.
  if (front_end) b.select += "*";
  if (!m.uncovered.empty()) {
    b.skip = m.uncovered + " (recipe " + r.name + ")";
    return b;
  }
  std::vector<std::string> files = m.crypto_api;
  if (m.through_glue()) files.push_back(m.glue);
  if (m.through_u_boot_hash()) files.insert(files.end(), {m.front_end, m.arch_glue});
  files.insert(files.end(), m.sources.begin(), m.sources.end());
  if (front_end) {
    files.push_back(m.front_end);
    files.insert(files.end(), m.front_end_sources.begin(), m.front_end_sources.end());
  }
  if (kunit) files.insert(files.end(), m.kunit.begin(), m.kunit.end());
  for (const std::string& s : files)
    if (std::error_code ec; !fs::is_regular_file(tree / s, ec)) {
      const std::string path = (tree / s).string();
      b.skip = path_missing(path) ? "the tree has no " + s + " (recipe " + r.name + ")"
                                  : "the tree's " + s + " is " + path_kind(path) + ", not a file (recipe " + r.name + ")";
      return b;
    }
  const std::string cc = compiler_for(m.arch);
  if (cc.empty()) {
    b.skip = "no compiler for " + m.arch + (m.arch == "arm64" ? " (install gcc-aarch64-linux-gnu)" : " (set CC)");
    return b;
  }

  // Through the glue, or one function called as a Linux or U-Boot glue calls it.
  const std::string template_name = front_end              ? (m.family == "chacha" ? "front_end_chacha" : "front_end_sha2")
                                    : m.through_crypto_api() ? "crypto_api"
                                    : m.through_u_boot_hash() ? "u-boot_hash"
                                    : m.through_glue()        ? m.family
                                    : m.environment == "u-boot" ? m.family + "_u-boot"
                                                                : m.family + "_function";
  std::string adapter = read_text(source_dir / "trees" / "support" / ("adapter_" + template_name + ".c.in"));
  std::string glue_files;
  for (const std::string& g : m.crypto_api) glue_files += (glue_files.empty() ? "" : " and ") + g;
  replace_all(adapter, "@PREFIX@", m.row() + ":");
  replace_all(adapter, "@KMOD@", m.kernel_module);
  replace_all(adapter, "@SUFFIX@", suffix);
  replace_all(adapter, "@FAMILY@", m.family);
  if (m.through_crypto_api()) replace_all(adapter, "@GLUE@", glue_files);
  replace_all(adapter, "@RECIPE@", r.name);
  replace_all(adapter, "@TREE@", fs::absolute(tree).lexically_normal().string());
  replace_all(adapter, "@GLUE@", m.glue);
  replace_all(adapter, "@BLOCKS@", m.blocks);
  // A front end's: its two algorithms of the family, and the library's.
  const bool wide = m.family == "sha512";
  replace_all(adapter, "@FRONT_END@", m.front_end);
  replace_all(adapter, "@BIG@", wide ? "sha512" : "sha256");
  replace_all(adapter, "@SMALL@", wide ? "sha384" : "sha224");
  replace_all(adapter, "@BIG_UPPER@", wide ? "SHA512" : "SHA256");
  replace_all(adapter, "@SMALL_UPPER@", wide ? "SHA384" : "SHA224");
  replace_all(adapter, "@BLOCK_SIZE@", wide ? "128" : "64");
  replace_all(adapter, "@BIG_DIGEST_SIZE@", wide ? "64" : "32");
  replace_all(adapter, "@SMALL_DIGEST_SIZE@", wide ? "48" : "28");
  replace_all(adapter, "@HAS_FINUP_2X@", (front_end ? m.family == "sha256" : !m.finup_2x.empty()) ? "1" : "0");
  replace_all(adapter, "@FINUP_2X@", m.finup_2x.empty() ? "0" : m.finup_2x);
  replace_all(adapter, "@NAME@", name);
  replace_all(adapter, "@MODULE@", r.name);
  // (A crypto API module's adapter writes its own notes, per driver.)
  const std::string function = function_in(m, tree);
  b.function = function;
  const std::string first_source = m.sources.empty() ? "" : m.sources.front();
  replace_all(adapter, "@NOTES@", m.through_glue()
                                      ? "the tree's " + m.glue + ", selecting by its own " + m.init + "()"
                                      : "the tree's " + function + " (" + first_source + ")");
  replace_all(adapter, "@INIT@", m.init);
  replace_all(adapter, "@FRONT_END@", m.front_end);
  replace_all(adapter, "@ARCH_GLUE@", m.arch_glue);
  replace_all(adapter, "@KCONFIG@", m.kconfig);
  replace_all(adapter, "@ALGO@", m.family);
  replace_all(adapter, "@FUNCTION@", function);
  replace_all(adapter, "@SOURCE@", first_source);
  replace_all(adapter, "@NEEDS@", m.needs);
  replace_all(adapter, "@CRYPT@", m.crypt);
  replace_all(adapter, "@HAS_HCHACHA@", m.hchacha.empty() ? "0" : "1");
  replace_all(adapter, "@HCHACHA@", m.hchacha.empty() ? "0" : m.hchacha);
  replace_all(adapter, "@BLOCKS_PER_CALL@", std::to_string(m.blocks_per_call));
  std::string offsets;
  for (const auto& [symbol, field] : m.offsets)
    offsets += "__attribute__((visibility(\"hidden\"))) const u32 " + symbol + " = offsetof(struct tree_" +
               m.family + "_state, " + field + ");\n";
  replace_all(adapter, "@OFFSETS@", offsets);

  std::string stem = m.family + "-" + name + (front_end ? ".front-end" : "");
  for (char& c : stem)
    if (c == ':' || c == '/') c = '-';
  std::error_code made;
  fs::create_directories(out_dir, made);

  // What the kernel's build would generate, generated here.
  std::vector<std::string> generated;
  for (const ModuleRecipe::Generated& g : m.generate) {
    const fs::path output = out_dir / (stem + ".generated") / g.output;
    fs::create_directories(output.parent_path(), made);
    std::vector<std::string> command;
    for (std::string a : g.command) {
      replace_all(a, "@TREE@", tree.string());
      replace_all(a, "@OUTPUT@", output.string());
      command.push_back(a);
    }
    if (const std::string program = find_program(command.front()); !program.empty()) command.front() = program;
    const fs::path generate_log = out_dir / (stem + "." + g.output + ".log");
    const ProcessResult gr = run_process(command, {}, generate_log.string());
    if (!gr.error.empty() || gr.status != 0 || !fs::is_regular_file(output, made)) {
      b.skip = "cannot generate " + g.output + " (" + generate_log.string() + "):\n" +
               head(gr.error.empty() ? read_text(generate_log) : gr.error, 8);
      return b;
    }
    generated.push_back(output.string());
  }
  const fs::path adapter_file = out_dir / (stem + ".adapter.c");
  const fs::path module = out_dir / (stem + ".so");
  const fs::path log = out_dir / (stem + ".log");
  std::ofstream(adapter_file) << adapter;

  const fs::path include = source_dir / "include";
  // The tree's own crypto headers (sha2.h or sha.h, sha256_base.h,
  // sha512_base.h, chacha.h, internal/chacha.h), unchanged, behind
  // lockstep's crypto API model: links
  // in a folder of their own, since the tree's include/ holds the whole
  // kernel's headers.
  const fs::path tree_headers = out_dir / (stem + ".include");
  if (m.through_crypto_api() || front_end || m.through_u_boot_hash()) {
    fs::remove_all(tree_headers, made);
    for (const std::string& h : front_end                 ? front_end_headers()
                                : m.through_u_boot_hash() ? m.headers
                                                          : crypto_api_headers())
      if (const fs::path from = tree / h; fs::is_regular_file(from, made)) {
        // include/crypto/internal/chacha.h -> <stem>.include/crypto/internal/chacha.h
        const fs::path to = tree_headers / fs::path(h).lexically_relative("include");
        fs::create_directories(to.parent_path(), made);
        fs::create_symlink(fs::absolute(from), to, made);
      }
  }
  std::vector<std::string> argv = {cc, "-shared", "-fPIC", "-O2", "-std=gnu11",
                                   "-include", "lockstep/kernel_compat.h",
                                   "-I", include.string(),
                                   "-I", (include / "lockstep" / (m.environment == "u-boot" ? "u-boot" : "kernel")).string(),
                                   "-I", (tree / fs::path(m.marker()).parent_path()).string(),
                                   // Kernel assembly has no .note.GNU-stack; every symbol
                                   // must resolve now, not at load time.
                                   "-Wl,-z,noexecstack", "-Wl,-z,defs",
                                   "-o", module.string(), adapter_file.string()};
  if (front_end) {
    // The library has its own generic code; the tree's types are the
    // tree's headers' (lockstep/kernel_compat.h leaves them out).
    argv.insert(argv.end(), {"-fvisibility=hidden", "-I", tree_headers.string(), "-DLOCKSTEP_TREE_CRYPTO_TYPES=1",
                             "-DKBUILD_MODNAME=\"" + fs::path(m.front_end).stem().string() + "\""});
    for (const std::string& f : m.front_end_sources) argv.push_back((tree / f).string());
    // The KUnit model's runtime, which finds no suite where none is built.
    argv.push_back((source_dir / "trees" / "support" / "kunit.c").string());
    if (kunit)
      for (const std::string& f : m.kunit) argv.push_back((tree / f).string());
  } else {
    argv.push_back((source_dir / "trees" / "support" / (m.family + "_generic.c")).string());
  }
  if (m.through_crypto_api()) {
    // A kernel module's symbols are its own unless exported: hidden, so
    // that its assembly may address its glue's data PC-relative (arm64's
    // ldr_l of sha256_ce_offsetof_count), as the kernel links it.
    argv.insert(argv.end(), {"-fvisibility=hidden", "-I", tree_headers.string(),
                             "-DKBUILD_MODNAME=\"" + m.kernel_module + "\""});
    const fs::path support = source_dir / "trees" / "support";
    for (const char* f : {"sha256_generic.c", "sha512_generic.c", "chacha_generic.c", "crypto_api.c", "skcipher_walk.c",
                          "crypto_sha2_generic.c"})
      if (m.family + "_generic.c" != f) argv.push_back((support / f).string());
    for (const std::string& g : m.crypto_api) argv.push_back((tree / g).string());
  }
  if (m.through_u_boot_hash()) {
    // U-Boot's build gives every file <linux/kconfig.h> first, not the
    // kernel's environment; the tree's own headers after lockstep's
    // U-Boot ones; the front end, the glue and lockstep's model of the
    // hash API; the glue's call of the function through the adapter's
    // __wrap_, which proves it is reached.
    *std::find(argv.begin(), argv.end(), "lockstep/kernel_compat.h") = "linux/kconfig.h";
    const fs::path support = source_dir / "trees" / "support";
    argv.insert(argv.end(), {"-I", tree_headers.string(), "-Wl,--wrap=" + function, (tree / m.front_end).string(),
                             (tree / m.arch_glue).string(), (support / "u-boot_hash.c").string(),
                             (support / "u-boot_watchdog.c").string()});
  }
  for (const std::string& option : m.config) argv.push_back("-D" + option + "=1");
  for (const std::string& option : assembler_config(cc, m.arch, source_dir, out_dir / "assembler-probes"))
    argv.push_back("-D" + option + "=1");
  for (const std::string& s : m.sources) argv.push_back((tree / s).string());
  argv.insert(argv.end(), generated.begin(), generated.end());
  // Unchanged since the last build: the module stands (a tree is large and
  // a user runs it again and again).
  const fs::path inputs = out_dir / (stem + ".inputs");
  std::string now = inputs_of(argv, adapter, tree, m, source_dir);
  for (const std::string& g : generated) now += std::to_string(std::hash<std::string>{}(read_text(g))) + "\n";
  if (std::error_code ec; fs::is_regular_file(module, ec) && read_text(inputs) == now) {
    b.module = module;
    b.reused = true;
    return b;
  }
  fs::remove(inputs, made);
  // Written under a name of this process's, then renamed: another run of
  // the same tree may be loading the module that stands.
  const fs::path fresh = module.string() + ".new." + std::to_string(getpid());
  std::replace(argv.begin(), argv.end(), module.string(), fresh.string());
  ProcessResult pr = run_process(argv, {}, log.string());
  std::string message = !pr.error.empty() ? pr.error : pr.status != 0 ? read_text(log) : "";
  // The kernel links at fixed addresses: its assembly may address data
  // with 32-bit absolute addresses, which no shared object can hold. Those
  // objects go to an image at a fixed address of their own, in the module.
  const bool absolute = message.find("R_X86_64_32") != std::string::npos &&
                        message.find("making a shared object") != std::string::npos;
  if (absolute && m.arch == "x86_64") {
    std::vector<std::string> flags, assembly = generated;
    for (size_t i = 1; i < argv.size(); ++i)
      if (argv[i] == "-include" || argv[i] == "-I") {
        flags.insert(flags.end(), {argv[i], argv[i + 1]});
        ++i;
      } else if (argv[i].starts_with("-D")) {
        flags.push_back(argv[i]);
      }
    for (const std::string& s : m.sources) assembly.push_back((tree / s).string());
    const FixedCode placed =
        place_fixed_code(cc, flags, assembly, out_dir, stem, source_dir / "trees" / "support");
    if (!placed.error.empty()) {
      b.skip = "addresses its data with 32-bit absolute addresses (the kernel's code model), and placing it at a "
               "fixed address failed: " + head(placed.error, 12);
      return b;
    }
    std::erase_if(argv, [&](const std::string& a) { return std::find(assembly.begin(), assembly.end(), a) != assembly.end(); });
    argv.insert(argv.end(), placed.inputs.begin(), placed.inputs.end());
    pr = run_process(argv, {}, log.string());
    message = !pr.error.empty() ? pr.error : pr.status != 0 ? read_text(log) : "";
  }
  if (!message.empty()) {
    fs::remove(fresh, made);
    b.skip = "does not build (" + log.string() + "):\n" + head(message, 12);
    return b;
  }
  fs::rename(fresh, module, made);
  std::ofstream(inputs) << now;
  b.module = module;
  return b;
}

}  // namespace

Built build(const Recipe& r, const ModuleRecipe& m, const fs::path& tree, const fs::path& source_dir,
            const fs::path& out_dir, const std::string& suffix) {
  if (m.front_end.empty() || !m.through_glue()) return build_module(r, m, tree, source_dir, out_dir, suffix, Kind::kAsRecipe);
  // The front end, over the glue, with the tree's KUnit suites; without
  // them where they do not build; else the glue alone.
  std::error_code ec;
  std::string why;
  if (!fs::is_regular_file(tree / m.front_end, ec)) {
    why = "the tree has no " + m.front_end + " (recipe " + r.name + ")";
  } else {
    Built b = build_module(r, m, tree, source_dir, out_dir, suffix, Kind::kFrontEnd);
    if (!b.module.empty() || m.kunit.empty()) {
      if (!b.module.empty()) return b;
      why = b.skip;
    } else {
      Built without = build_module(r, m, tree, source_dir, out_dir, suffix, Kind::kFrontEndWithoutKunit);
      if (!without.module.empty()) {
        without.kunit_skip = "its KUnit suites do not build: " + b.skip;
        return without;
      }
      why = without.skip;
    }
  }
  Built b = build_module(r, m, tree, source_dir, out_dir, suffix, Kind::kAsRecipe);
  b.front_end_skip = "the library front end " + m.front_end + ": " + why;
  return b;
}

}  // namespace lockstep::cli::tree
