// Tree recipes (trees/*.json): how lockstep recognises a source tree's
// crypto files and which of its functions fill which slot of module.h. One
// file per tree layout, so a new layout is a new recipe, not new code.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lockstep::cli::tree {

// A module is one of three kinds (the third, through the crypto API, is
// described with its fields below). Through the glue: the tree's glue header
// is built with its init and entry points, and the kernel's own selection
// runs (no needs: the glue picks its path, or its fallback). Through one
// function: where the tree's glue does not build in user space (an older
// kernel's crypto API glue, U-Boot), one assembly function is called as
// such glue calls it, and the module declares what that function needs.
//
// The environment says how that glue calls it: "linux" (the default) in
// SIMD sections of at most 4 KiB where SIMD is usable, the generic code
// elsewhere, with include/lockstep/kernel's headers; "u-boot" directly, as
// plain C calls a function (U-Boot has no kernel_neon_begin: the AAPCS64's
// callee-saved d8-d15 are the callee's to keep), with
// include/lockstep/u-boot's headers.
struct ModuleRecipe {
  std::string name;    // the backend's name: "linux:sha256"
  std::string arch;    // "x86_64" or "arm64"
  std::string family;  // "sha256", "sha512", "chacha"
  std::vector<std::string> sources;  // assembly and C files, relative to the tree
  // Sources the kernel's build generates (perlasm): each written by its
  // command into lockstep's build directory, never the tree, and compiled
  // with the sources. In the command, @TREE@ is the tree, @OUTPUT@ the file.
  struct Generated {
    std::string output;                // "sha256-core.S"
    std::vector<std::string> command;  // {"perl", "@TREE@/lib/crypto/arm64/sha2-armv8.pl", "void", "@OUTPUT@"}
  };
  std::vector<Generated> generate;
  // Kconfig options the files test with IS_ENABLED() that are set (to y)
  // in the kernel configuration the module models: "CONFIG_CPU_SUP_ZHAOXIN".
  std::vector<std::string> config;
  // Through the glue:
  std::string glue;      // the glue header, relative to the tree
  std::string init;      // the glue's init: "sha256_mod_init_arch"
  std::string blocks;    // sha256, sha512: the glue's block function
  std::string finup_2x;  // the glue's 2-way finup; empty: none
  std::string crypt;     // chacha: the glue's chacha_crypt_arch
  // chacha: the glue's hchacha_block_arch, or through one function, the
  // tree's HChaCha function (state, out, nrounds); empty: none.
  std::string hchacha;
  // Through the glue, and over it the tree's own library front end where
  // the tree has one (Linux 6.17 and later: lib/crypto/sha256.c), built
  // unchanged with the glue and run from its library API (trees/support/adapter_front_end_*.c.in);
  // where it is missing or does not build, the glue alone, as above, and a
  // SKIP row that says why.
  std::string front_end;                       // "lib/crypto/sha256.c"
  std::vector<std::string> front_end_sources;  // more of the library: "lib/crypto/chacha-block-generic.c"
  std::vector<std::string> kunit;              // its KUnit suites: "lib/crypto/tests/sha256_kunit.c"
  // Through one function, (state, data, int blocks):
  std::string function;  // "sha256_transform_rorx"
  // Every name `function` had by era, the first as `function`; the tree
  // uses the one its sources define (function_in()).
  std::vector<std::string> functions;
  // chacha: how many blocks one call of `function` (state, dst, src,
  // unsigned int len, nrounds) takes at most; the caller advances word 12.
  int blocks_per_call = 0;
  std::string environment = "linux";  // "linux" or "u-boot"
  std::string needs;     // lockstep's feature names: "avx2 bmi2"
  // Symbols the assembly reads a state field's offset from, which its glue
  // defines: {"sha256_ce_offsetof_count", "count"}. Fields: count, finalize.
  std::vector<std::pair<std::string, std::string>> offsets;
  // Through the crypto API (the older layout's glue, built whole into
  // lockstep's model of the crypto API, lockstep/crypto_api.h): the glue's
  // .c files, and the kernel module they make ("sha256-ssse3"). Every shash
  // driver its init registers is a backend "<name>:<cra_driver_name>".
  std::vector<std::string> crypto_api;
  std::string kernel_module;
  // Through U-Boot's front end (`front_end` above, with `function`,
  // environment "u-boot"): the tree's lib/sha256.c-like front end and the
  // arch glue whose
  // <family>_process overrides its weak one and calls `function`, built
  // unchanged with `sources` behind lockstep's model of U-Boot's hash API
  // (trees/support/u-boot_hash.c); `headers`, the tree's own headers they
  // include ("include/u-boot/sha256.h"), go on the include path alone;
  // `kconfig` is the option that makes the glue call `function`, the
  // board's only selection (no run-time check).
  std::string arch_glue, kconfig;
  std::vector<std::string> headers;
  // Files of the tree lockstep builds nothing of, with why ("lockstep has
  // no SHA-1 family"): a SKIP row of their own, never silently left out.
  std::string uncovered;

  bool through_glue() const { return !glue.empty(); }
  bool through_crypto_api() const { return !crypto_api.empty(); }
  // U-Boot's front end over its arch glue, through its hash API.
  bool through_u_boot_hash() const { return !front_end.empty() && !through_glue(); }
  // The file whose presence says the tree has this module.
  const std::string& marker() const {
    return through_glue() ? glue : through_crypto_api() ? crypto_api.front() : sources.front();
  }
  // The module's own row name: its backend's, or for a crypto API module
  // (whose drivers are known only when its init runs) "<name>:<kernel_module>".
  std::string row() const { return through_crypto_api() ? name + ":" + kernel_module : name; }
  // The pattern of its rows: its row, or a crypto API module's drivers,
  // "<name>:<kernel_module>:<cra_driver_name>".
  std::string rows() const { return through_crypto_api() ? row() + ":*" : row(); }
  // Every file of the tree it is built from, as the recipe names them.
  std::vector<std::string> files() const;
};

// The tree's own headers a crypto API module's glue includes (those the
// tree has), put on the include path behind lockstep's model.
const std::vector<std::string>& crypto_api_headers();
// The same for a library front end and its KUnit suites.
const std::vector<std::string>& front_end_headers();

struct Recipe {
  std::filesystem::path file;
  std::string name;   // "linux-lib-crypto"
  std::string about;  // one line
  std::string era;    // the layout's era: "Linux 6.17 and later"; a tree has one
  std::vector<ModuleRecipe> modules;
};

// load_recipes reads every trees/*.json of `dir`, in name order. A recipe
// that is not valid JSON or lacks a field stops the program: exit 2, with
// the file and the field named.
std::vector<Recipe> load_recipes(const std::filesystem::path& dir);

// The modules of the recipes that `tree` holds: a module counts when its
// marker (its glue header, or its first source) is there; its other
// sources may still be missing: that is the build's SKIP, with the file named.
struct Match {
  const Recipe* recipe;
  const ModuleRecipe* module;
};
std::vector<Match> match(const std::vector<Recipe>& recipes, const std::filesystem::path& tree);

}  // namespace lockstep::cli::tree
