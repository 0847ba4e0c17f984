#include "vector_set.h"

#include <exception>

namespace lockstep::conformance {

std::vector<const LoadedFile*> VectorSet::named(std::string_view catalog_name) const {
  std::vector<const LoadedFile*> out;
  for (const LoadedFile& f : files)
    if (f.catalog == catalog_name) out.push_back(&f);
  return out;
}

const VectorSet& vector_set() {
  static const VectorSet set = [] {
    VectorSet s;
    try {
      s.dir = vectors::data_dir();
      if (!std::filesystem::is_directory(s.dir)) {
        s.errors.push_back(s.dir.string() + ": not a directory");
        return s;
      }
      for (const std::filesystem::path& p : vectors::files(s.dir)) {
        const std::string display = p.lexically_relative(s.dir).string();
        try {
          LoadedFile f{vectors::load(p), "", display};
          try {
            f.catalog = vectors::catalog_name(f.file.algorithm);
          } catch (const std::exception&) {
            // An algorithm lockstep has no catalog name for (yet) is not an
            // error of the file; it is simply not ours to run here.
            f.catalog.clear();
          }
          s.files.push_back(std::move(f));
        } catch (const std::exception& e) {
          s.errors.push_back(display + ": " + e.what());
        }
      }
    } catch (const std::exception& e) {
      s.errors.push_back(std::string("listing vector files: ") + e.what());
    }
    return s;
  }();
  return set;
}

const vectors::ConsolidatedTest* consolidated_value(std::string_view catalog_name,
                                                    std::string* from) {
  for (const LoadedFile* f : vector_set().named(catalog_name)) {
    if (f->file.consolidated.empty()) continue;
    if (from) *from = f->display;
    return &f->file.consolidated.front();
  }
  return nullptr;
}

}  // namespace lockstep::conformance
