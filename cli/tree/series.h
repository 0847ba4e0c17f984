// `lockstep tree DIR --series PATCH...`: the tree as it is and the tree
// with a patch series applied, built side by side and run in one matrix,
// then compared cell by cell. The tree itself is never written: the series
// goes into a copy of the files the recipes and the series name.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "recipe.h"

namespace lockstep::cli::tree {

// The suffix of a backend built from the patched copy: the row of
// "sha256/linux:sha256" after the series is "sha256/linux:sha256.series".
inline constexpr const char* kSeriesSuffix = ".series";

// series_files expands --series arguments, in order: a file as it is; a
// directory's *.patch, *.diff, *.mbox and *.eml files by name. A missing
// path or an empty directory: "" and `error` says which.
std::vector<std::filesystem::path> series_files(const std::vector<std::string>& args, std::string* error);

struct AppliedSeries {
  std::vector<std::string> patches;  // one line each: file, and the mail's subject
  std::vector<std::string> touched;  // the paths the series changes, relative to the tree
  std::string error;                 // why it did not apply, naming the patch
};

// touches: whether the series changes a file `m` lists (its glue, its
// sources): a module it does not touch is the same after it. (A file the
// glue includes from its own directory is not followed: kernel glue
// includes only the kernel's headers.)
bool touches(const AppliedSeries& s, const ModuleRecipe& m);

// apply_series fills `copy` (emptied first) with the files of `tree` the
// recipes list and the series touches, and applies each patch there in
// order: a mail (or mbox of mails) as git am reads it, quoted-printable or
// base64 included; anything else as a plain diff. `work` holds the
// extracted patches and git's messages.
AppliedSeries apply_series(const std::vector<Recipe>& recipes, const std::filesystem::path& tree,
                           const std::vector<std::filesystem::path>& series, const std::filesystem::path& copy,
                           const std::filesystem::path& work);

// compare prints, from a run's matrix.json, every cell whose verdict the
// series changed, the rows it added or removed (`untouched` backends have
// no patched rows: the series left their files alone), what the kernel's
// init selected before and after where that differs, and the counts;
// returns 2 when the matrix is unreadable, else 0.
int compare(const std::filesystem::path& matrix_json, const std::vector<std::string>& untouched);

// bench_series prints the seed-style MB/s table of every native backend
// the series rebuilt, before and after, measured side by side in one
// lockstep_bench run at the kernel's benchmark lengths (series_bench.cpp).
// It reports and never decides the exit status; the JSON stays in `out`.
void bench_series(const std::filesystem::path& out, double min_time);

}  // namespace lockstep::cli::tree
