#include "series.h"

#include "read_text.h"

#include <fnmatch.h>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "process.h"

namespace lockstep::cli::tree {
namespace {

namespace fs = std::filesystem;

std::string first_lines(const std::string& text, int n) {
  std::stringstream in(text);
  std::string out;
  for (std::string line; n > 0 && std::getline(in, line); --n) out += "    " + line + "\n";
  return out;
}

// A mail, or an mbox of them: it opens with an mbox "From " line or with
// header fields, Subject among them, before the first empty line.
bool is_mail(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  if (!std::getline(in, line)) return false;
  if (line.rfind("From ", 0) == 0) return true;
  for (int n = 0; n < 200 && !line.empty(); ++n, std::getline(in, line)) {
    if (line.rfind("diff ", 0) == 0 || line.rfind("--- ", 0) == 0) return false;
    if (line.rfind("Subject:", 0) == 0) return true;
    if (!std::getline(in, line)) break;
    if (line.rfind("Subject:", 0) == 0) return true;
  }
  return false;
}

struct Patch {
  fs::path file;     // the diff git applies
  std::string what;  // "0001-x.patch: [PATCH 1/2] lib/crypto: ..."
};

// The diffs of one --series file: a mail's each (git mailsplit, then git
// mailinfo, which decodes the transfer encoding), or the file itself.
std::vector<Patch> patches_of(const fs::path& file, size_t index, const fs::path& work, const std::string& git,
                              std::string* error) {
  if (!is_mail(file)) return {{file, file.filename().string()}};
  const fs::path mails = work / fmt::format("mails-{}", index);
  fs::create_directories(mails);
  const fs::path log = work / fmt::format("mailsplit-{}.log", index);
  const ProcessResult split = run_process({git, "mailsplit", "-b", "-o" + mails.string(), file.string()}, {}, log.string());
  if (!split.error.empty() || split.status != 0) {
    *error = fmt::format("{}: not a mail git can split:\n{}", file.string(),
                         first_lines(split.error.empty() ? read_text(log) : split.error, 5));
    return {};
  }
  std::vector<fs::path> parts;
  for (const fs::directory_entry& e : fs::directory_iterator(mails)) parts.push_back(e.path());
  std::sort(parts.begin(), parts.end());
  std::vector<Patch> out;
  const std::string sh = find_program("sh");
  for (const fs::path& part : parts) {
    const fs::path diff = part.string() + ".diff", info = part.string() + ".info";
    const ProcessResult r = run_process(
        {sh, "-c", "exec \"$0\" mailinfo \"$1\" \"$2\" < \"$3\"", git, (part.string() + ".msg"), diff.string(),
         part.string()},
        {}, info.string());
    if (!r.error.empty() || r.status != 0) {
      *error = fmt::format("{}: git mailinfo cannot read mail {}:\n{}", file.string(), part.filename().string(),
                           first_lines(r.error.empty() ? read_text(info) : r.error, 5));
      return {};
    }
    std::string subject;
    std::stringstream lines(read_text(info));
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("Subject: ", 0) == 0) subject = line.substr(9);
    // A cover letter carries no diff.
    if (fs::file_size(diff) == 0) continue;
    out.push_back({diff, fmt::format("{}: {}", file.filename().string(), subject.empty() ? "(no subject)" : subject)});
  }
  // The cover letter `git format-patch --cover-letter` writes beside the
  // patches: a mail with no diff, and no error in a series folder.
  if (out.empty() && file.filename() != "0000-cover-letter.patch")
    *error = fmt::format("{}: no mail in it carries a diff", file.string());
  return out;
}

// The paths a diff touches, as `git apply --numstat` lists them.
std::vector<std::string> touched(const Patch& p, const std::string& git, const fs::path& repo, const fs::path& log,
                                 std::string* error) {
  const ProcessResult r = run_process({git, "-C", repo.string(), "apply", "--numstat", p.file.string()}, {}, log.string());
  if (!r.error.empty() || r.status != 0) {
    *error = fmt::format("{}: not a diff git can read:\n{}", p.what, first_lines(r.error.empty() ? read_text(log) : r.error, 5));
    return {};
  }
  std::vector<std::string> out;
  std::stringstream lines(read_text(log));
  for (std::string line; std::getline(lines, line);) {
    const size_t tab = line.find('\t', line.find('\t') + 1);
    if (tab == std::string::npos) continue;
    const std::string path = line.substr(tab + 1);
    if (path.find(" => ") == std::string::npos) out.push_back(path);  // a rename's source need not be copied
  }
  return out;
}

void copy_file(const fs::path& tree, const std::string& rel, const fs::path& copy) {
  std::error_code ec;
  if (!fs::is_regular_file(tree / rel, ec)) return;
  fs::create_directories((copy / rel).parent_path(), ec);
  fs::copy_file(tree / rel, copy / rel, fs::copy_options::overwrite_existing, ec);
}

// j[key] where it is of `type`, else an empty one (an environment that did
// not run has no matrix).
const nlohmann::json& member(const nlohmann::json& j, const char* key, nlohmann::json::value_t type) {
  static const nlohmann::json empty_object = nlohmann::json::object(), empty_array = nlohmann::json::array();
  const nlohmann::json& none = type == nlohmann::json::value_t::array ? empty_array : empty_object;
  if (!j.is_object()) return none;
  const auto it = j.find(key);
  return it != j.end() && it->type() == type ? *it : none;
}

std::string text(const nlohmann::json& j, const char* key) {
  const auto it = j.is_object() ? j.find(key) : j.end();
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

std::vector<fs::path> series_files(const std::vector<std::string>& args, std::string* error) {
  std::vector<fs::path> out;
  for (const std::string& a : args) {
    std::error_code ec;
    if (fs::is_directory(a, ec)) {
      std::vector<fs::path> found;
      for (const fs::directory_entry& e : fs::directory_iterator(fs::absolute(a, ec), ec)) {
        const std::string ext = e.path().extension().string();
        if (e.is_regular_file() && (ext == ".patch" || ext == ".diff" || ext == ".mbox" || ext == ".eml"))
          found.push_back(e.path());
      }
      if (found.empty()) {
        *error = a + ": holds no *.patch, *.diff, *.mbox or *.eml file";
        return {};
      }
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(a, ec)) {
      // Absolute: git applies it from inside the tree's copy.
      out.push_back(fs::absolute(a, ec));
    } else {
      *error = a + ": no such file or directory";
      return {};
    }
  }
  return out;
}

AppliedSeries apply_series(const std::vector<Recipe>& recipes, const fs::path& tree, const std::vector<fs::path>& series,
                           const fs::path& copy, const fs::path& work) {
  AppliedSeries result;
  const std::string git = find_program("git");
  if (git.empty()) {
    result.error = "git is not installed (Debian: apt install git): it applies the series";
    return result;
  }
  std::error_code ec;
  fs::remove_all(copy, ec);
  fs::remove_all(work, ec);
  fs::create_directories(copy);
  fs::create_directories(work);

  std::vector<Patch> patches;
  for (size_t i = 0; i < series.size(); ++i) {
    std::vector<Patch> p = patches_of(series[i], i, work, git, &result.error);
    if (!result.error.empty()) return result;
    patches.insert(patches.end(), p.begin(), p.end());
  }

  // A repository of its own, where git reads and applies the paths: run
  // inside another repository's subfolder (lockstep's build directory lies
  // in its checkout), git leaves out every path outside that subfolder.
  const fs::path init_log = work / "init.log";
  const ProcessResult init = run_process({git, "-C", copy.string(), "init", "-q"}, {}, init_log.string());
  if (!init.error.empty() || init.status != 0) {
    result.error = "git init " + copy.string() + " failed:\n" + first_lines(read_text(init_log), 5);
    return result;
  }
  // The files the recipes read (whole directories: a glue may include its
  // neighbours) and the files the series touches.
  std::set<std::string> files;
  for (const Recipe& r : recipes)
    for (const ModuleRecipe& m : r.modules) {
      for (const std::string& f : m.files()) {
        const fs::path dir = tree / fs::path(f).parent_path();
        if (!fs::is_directory(dir, ec)) continue;
        for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
          if (e.is_regular_file()) files.insert(fs::relative(e.path(), tree).string());
      }
    }
  for (size_t i = 0; i < patches.size(); ++i) {
    const std::vector<std::string> paths =
        touched(patches[i], git, copy, work / fmt::format("numstat-{}.log", i), &result.error);
    if (!result.error.empty()) return result;
    // Never a silent pass: a patch that changes nothing git can see is an error.
    if (paths.empty()) {
      result.error = fmt::format("patch {} of {} ({}) changes no file that git can read in it", i + 1,
                                 patches.size(), patches[i].what);
      return result;
    }
    for (const std::string& f : paths) {
      files.insert(f);
      result.touched.push_back(f);
    }
  }
  for (const std::string& f : files) copy_file(tree, f, copy);

  for (size_t i = 0; i < patches.size(); ++i) {
    const fs::path log = work / fmt::format("apply-{}.log", i);
    const ProcessResult r =
        run_process({git, "-C", copy.string(), "apply", "--whitespace=nowarn", patches[i].file.string()}, {}, log.string());
    if (!r.error.empty() || r.status != 0) {
      result.error = fmt::format("patch {} of {} ({}) does not apply to {}:\n{}", i + 1, patches.size(), patches[i].what,
                                 tree.string(), first_lines(r.error.empty() ? read_text(log) : r.error, 8));
      return result;
    }
    result.patches.push_back(patches[i].what);
  }
  return result;
}

bool touches(const AppliedSeries& s, const ModuleRecipe& m) {
  for (const std::string& t : s.touched)
    for (const std::string& f : m.files())
      if (fs::path(t).lexically_normal() == fs::path(f).lexically_normal()) return true;
  return false;
}

namespace {

using vt = nlohmann::json::value_t;
// (algorithm, backend without the suffix) -> check -> status
using SeriesCells = std::map<std::pair<std::string, std::string>, std::map<std::string, std::string>>;

// The counts the comparison ends with.
struct SeriesTally {
  int changed = 0, fixed = 0, broke = 0, after_failed = 0, after_passed = 0, before_failed = 0;
};

// One environment's rows, split into the tree's (before) and the patched tree's (after).
void split_rows(const nlohmann::json& env, const std::string& suffix, SeriesTally& t, SeriesCells& before,
                SeriesCells& after) {
  for (const auto& row : member(member(env, "matrix", vt::object), "rows", vt::array)) {
    const std::string backend = text(row, "backend");
    std::map<std::string, std::string> checks;
    for (const auto& [check, cell] : member(row, "checks", vt::object).items()) checks[check] = text(cell, "status");
    if (backend.ends_with(suffix)) {
      for (const auto& [check, status] : checks) {
        t.after_failed += status == "FAIL";
        t.after_passed += status == "PASS";
      }
      after[{text(row, "algorithm"), backend.substr(0, backend.size() - suffix.size())}] = checks;
    } else {
      for (const auto& [check, status] : checks) t.before_failed += status == "FAIL";
      before[{text(row, "algorithm"), backend}] = checks;
    }
  }
}

// The cells whose verdict the series changed, rows new in it, and rows gone after it.
void changed_cells(const std::string& id, const std::string& suffix, const SeriesCells& before, const SeriesCells& after,
                   const std::vector<std::string>& untouched, SeriesTally& t, std::vector<std::string>& lines) {
  for (const auto& [key, checks] : after) {
    const auto b = before.find(key);
    if (b == before.end()) {
      std::string cells;
      for (const auto& [check, status] : checks) cells += fmt::format(" {} {}", check, status);
      lines.push_back(fmt::format("  {:<26} {} @ {}{}: new in the series:{}", id, key.first, key.second, suffix, cells));
      continue;
    }
    for (const auto& [check, status] : checks) {
      const auto was = b->second.find(check);
      const std::string before_status = was == b->second.end() ? "-" : was->second;
      if (before_status == status) continue;
      ++t.changed;
      t.fixed += before_status == "FAIL" && status == "PASS";
      t.broke += status == "FAIL";
      lines.push_back(fmt::format("  {:<26} {} @ {} [{}]: {} -> {}", id, key.first, key.second, check, before_status, status));
    }
  }
  for (const auto& [key, checks] : before)
    if (!after.contains(key) && std::none_of(untouched.begin(), untouched.end(), [&](const std::string& u) {
          return fnmatch(u.c_str(), key.second.c_str(), 0) == 0;
        }))
      lines.push_back(fmt::format("  {:<26} {} @ {}: gone after the series (its module no longer builds or "
                                  "its files are gone)",
                                  id, key.first, key.second));
}

// What the kernel chose: module "x.so" before, "x.series.so" after; a line where they differ.
void kernel_choices(const nlohmann::json& env, const std::string& id, const std::string& suffix,
                    std::vector<std::string>& lines) {
  std::map<std::string, std::vector<std::string>> chose_before, chose_after;
  for (const auto& line : member(env, "kernel_selected", vt::array)) {
    if (!line.is_string()) continue;
    const std::string s = line.get<std::string>();
    const size_t colon = s.find(": ");
    if (colon == std::string::npos) continue;
    std::string module = s.substr(0, colon);
    // A module's file ("x.series.so"), or a crypto API ("crypto API.series").
    const bool patched = module.ends_with(suffix + ".so") || module.ends_with(suffix);
    if (patched) module.erase(module.rfind(suffix), suffix.size());
    (patched ? chose_after : chose_before)[module].push_back(s.substr(colon + 2));
  }
  for (const auto& [module, what] : chose_after) {
    const auto b = chose_before.find(module);
    if (b != chose_before.end() && b->second == what) continue;
    std::string was, now;
    if (b != chose_before.end())
      for (const std::string& w : b->second) was += (was.empty() ? "" : "; ") + w;
    for (const std::string& w : what) now += (now.empty() ? "" : "; ") + w;
    lines.push_back(fmt::format("  {:<26} kernel selected in {}: {} -> {}", id, module,
                                was.empty() ? "(nothing)" : was, now));
  }
}

// The comparison as printed: the untouched modules, the lines, then the counts.
void print_comparison(const std::string& suffix, const std::vector<std::string>& untouched,
                      const std::vector<std::string>& lines, const SeriesTally& t) {
  fmt::print("\nseries: the tree before and after, cell by cell (rows of the patched tree end in {})\n", suffix);
  if (!untouched.empty()) {
    std::string names;
    for (const std::string& u : untouched) names += (names.empty() ? "" : ", ") + u;
    fmt::print("  the series touches no file of {}: the same before and after\n", names);
  }
  for (const std::string& l : lines) fmt::print("{}\n", l);
  if (lines.empty()) fmt::print("  no cell changed verdict\n");
  fmt::print("series: {} cells changed ({} fixed, {} broken); the patched rows: {} passed, {} failed{}\n", t.changed,
             t.fixed, t.broke, t.after_passed, t.after_failed,
             t.before_failed ? fmt::format(" (the tree before it: {} failed)", t.before_failed) : "");
}

}  // namespace

int compare(const fs::path& matrix_json, const std::vector<std::string>& untouched) {
  nlohmann::json m;
  try {
    std::ifstream in(matrix_json);
    m = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    fmt::print(stderr, "lockstep tree: cannot read {}: {}\n", matrix_json.string(), e.what());
    return 2;
  }
  const std::string suffix = kSeriesSuffix;
  SeriesTally t;
  std::vector<std::string> lines;
  for (const auto& env : member(m, "environments", vt::array)) {
    const std::string id = text(env, "id");
    SeriesCells before, after;
    split_rows(env, suffix, t, before, after);
    changed_cells(id, suffix, before, after, untouched, t, lines);
    kernel_choices(env, id, suffix, lines);
  }
  print_comparison(suffix, untouched, lines, t);
  return 0;
}

}  // namespace lockstep::cli::tree
