// `lockstep tree DIR --series PATCH...`: the tree as it is and the tree
// with a patch series applied, built side by side and run in one matrix,
// then compared cell by cell. The tree itself is never written: the series
// goes into a copy of the files the recipes and the series name.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tree_recipe.h"

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
  std::string error;                 // why it did not apply, naming the patch
};

// apply_series fills `copy` (emptied first) with the files of `tree` the
// recipes list and the series touches, and applies each patch there in
// order: a mail (or mbox of mails) as git am reads it, quoted-printable or
// base64 included; anything else as a plain diff. `work` holds the
// extracted patches and git's messages.
AppliedSeries apply_series(const std::vector<Recipe>& recipes, const std::filesystem::path& tree,
                           const std::vector<std::filesystem::path>& series, const std::filesystem::path& copy,
                           const std::filesystem::path& work);

// compare prints, from a run's matrix.json, every cell whose verdict the
// series changed, the rows it added or removed, what the kernel's init
// selected before and after where that differs, and the counts; returns 2
// when the matrix is unreadable, else 0.
int compare(const std::filesystem::path& matrix_json);

}  // namespace lockstep::cli::tree
