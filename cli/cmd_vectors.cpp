// `lockstep vectors FILE-or-DIR...`: vector files (lockstep's own schemas,
// Wycheproof, ACVP, CAVP, Botan; vectors/import) against every available
// backend of their family, with per-file, per-backend counts. The exit
// status is 1 on any failure, malformed file or unreadable path, and when no
// case ran at all (unless --allow-empty); 2 on a bad option. Errors go to
// standard error, the report to standard output.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "commands.h"
#include "file_kind.h"
#include "backend.h"
#include "catalog.h"
#include "conformance/vector_runner.h"
#include "cpu/cpu.h"
#include "vectors/import/import.h"

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;
namespace imp = vectors::import;

// A file found on the command line or under a directory given there.
struct Entry {
  fs::path path;
  std::string shown;  // relative to the directory argument, or as given
  imp::Detected detected;
  std::string text;
  bool taken = false;  // part of a unit, or listed as ignored
};

// Something to read: one file, or an ACVP prompt with its expected results.
struct Unit {
  const Entry* first = nullptr;
  const Entry* second = nullptr;  // the expected results of a prompt
  std::string shown;
};

struct Totals {
  size_t files = 0, cases = 0, skipped = 0, runs = 0, passed = 0, failed = 0, malformed = 0;
  double seconds = 0;
  std::map<std::string, size_t> reasons;  // skipped cases per reason
};

// parse_size reads "1073741824", "1G", "512MiB", "0": binary multiples.
std::optional<uint64_t> parse_size(const std::string& s) {
  size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
  if (digits == 0 || digits > 20) return std::nullopt;
  std::string unit = s.substr(digits);
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  int shift = 0;
  if (unit.empty() || unit == "b") shift = 0;
  else if (unit == "k" || unit == "kib") shift = 10;
  else if (unit == "m" || unit == "mib") shift = 20;
  else if (unit == "g" || unit == "gib") shift = 30;
  else if (unit == "t" || unit == "tib") shift = 40;
  else return std::nullopt;
  uint64_t v = 0;
  for (size_t i = 0; i < digits; ++i) {
    const uint64_t d = static_cast<uint64_t>(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  if (shift && v > (UINT64_MAX >> shift)) return std::nullopt;
  return v << shift;
}

bool read_file(const fs::path& p, std::string& out, std::string& error) {
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    error = "cannot open";
    return false;
  }
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) {
    error = "read error";
    return false;
  }
  out = std::move(s).str();
  return true;
}

// examine reads what detection needs; false on a read error (reported).
bool examine(Entry& e) {
  if (!imp::wants_content(e.path)) {
    e.detected = imp::detect(e.path, "");
    return true;
  }
  std::string error;
  if (!read_file(e.path, e.text, error)) {
    fmt::print(stderr, "lockstep vectors: {}: {}\n", e.shown, error);
    return false;
  }
  e.detected = imp::detect(e.path, e.text);
  return true;
}

std::string join(const std::vector<std::string>& items, size_t max) {
  std::string s;
  for (size_t i = 0; i < items.size() && i < max; ++i) s += (i ? ", " : "") + items[i];
  if (items.size() > max) s += fmt::format(", ... ({} more)", items.size() - max);
  return s;
}

bool is_acvp(imp::Kind k) {
  return k == imp::Kind::kAcvpPrompt || k == imp::Kind::kAcvpExpected ||
         k == imp::Kind::kAcvpProjection;
}

// group_acvp pairs each directory's prompt with its expected results; an
// internalProjection.json beside such a pair holds the same tests again.
void group_acvp(std::vector<Entry>& entries, std::vector<Unit>& units,
                std::vector<std::pair<std::string, std::string>>& ignored) {
  std::map<fs::path, std::vector<Entry*>> dirs;
  for (Entry& e : entries)
    if (is_acvp(e.detected.kind)) dirs[e.path.parent_path()].push_back(&e);
  for (Entry& e : entries) {
    if (!is_acvp(e.detected.kind) || e.taken) continue;
    std::vector<Entry*> prompts, expected, projections;
    for (Entry* x : dirs[e.path.parent_path()]) {
      x->taken = true;
      if (x->detected.kind == imp::Kind::kAcvpPrompt) prompts.push_back(x);
      else if (x->detected.kind == imp::Kind::kAcvpExpected) expected.push_back(x);
      else projections.push_back(x);
    }
    if (prompts.size() == 1 && expected.size() == 1) {
      const fs::path dir = fs::path(prompts[0]->shown).parent_path();
      units.push_back({prompts[0], expected[0],
                       (dir / ("{" + prompts[0]->path.filename().string() + "," +
                               expected[0]->path.filename().string() + "}"))
                           .generic_string()});
      for (Entry* p : projections)
        ignored.emplace_back(p->shown, "ACVP: the same tests as " +
                                           prompts[0]->path.filename().string() + " + " +
                                           expected[0]->path.filename().string());
      continue;
    }
    for (Entry* p : projections) units.push_back({p, nullptr, p->shown});
    const bool ambiguous = prompts.size() > 1 || expected.size() > 1;
    for (Entry* p : prompts)
      ignored.emplace_back(p->shown, ambiguous ? "ACVP prompt: more than one in its directory, cannot pair"
                                               : "ACVP prompt without expected results beside it");
    for (Entry* x : expected)
      ignored.emplace_back(x->shown, ambiguous ? "ACVP expected results: more than one in its directory, cannot pair"
                                               : "ACVP expected results without their prompt beside them");
  }
}

// add_counterparts: an ACVP prompt named alone brings the expected results
// beside it, and the other way round (whatever the files are called).
void add_counterparts(std::vector<Entry>& entries) {
  const size_t named = entries.size();
  for (size_t i = 0; i < named; ++i) {
    const imp::Kind kind = entries[i].detected.kind;
    if (kind != imp::Kind::kAcvpPrompt && kind != imp::Kind::kAcvpExpected) continue;
    const imp::Kind wanted =
        kind == imp::Kind::kAcvpPrompt ? imp::Kind::kAcvpExpected : imp::Kind::kAcvpPrompt;
    const fs::path dir = entries[i].path.parent_path();
    auto in_dir = [&](imp::Kind k) {
      return std::any_of(entries.begin(), entries.end(), [&](const Entry& e) {
        return e.path.parent_path() == dir && e.detected.kind == k;
      });
    };
    if (in_dir(wanted)) continue;
    std::error_code ec;
    std::vector<fs::path> candidates;
    for (fs::directory_iterator it(dir.empty() ? "." : dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".json" && it->is_regular_file(ec)) candidates.push_back(it->path());
    std::sort(candidates.begin(), candidates.end());
    for (const fs::path& c : candidates) {
      const fs::path path = dir.empty() ? c.filename() : c;
      if (std::any_of(entries.begin(), entries.end(), [&](const Entry& e) { return e.path == path; }))
        continue;
      Entry sibling{path, path.generic_string(), {}, {}};
      if (examine(sibling) && sibling.detected.kind == wanted) entries.push_back(std::move(sibling));
    }
  }
}

imp::ImportedFile read_unit(const Unit& u) {
  const Entry& e = *u.first;
  switch (e.detected.kind) {
    case imp::Kind::kWycheproof: return imp::read_wycheproof(e.text, u.shown);
    case imp::Kind::kCavp: return imp::read_cavp(e.text, u.shown);
    case imp::Kind::kBotan: return imp::read_botan(e.text, u.shown);
    case imp::Kind::kKizzycode: return imp::read_kizzycode(e.text, u.shown);
    case imp::Kind::kLockstep: return imp::read_lockstep(e.text, u.shown);
    case imp::Kind::kAcvpProjection: return imp::read_acvp_projection(e.text, u.shown);
    case imp::Kind::kAcvpPrompt:
      return imp::read_acvp(e.text, u.first->shown, u.second->text, u.second->shown);
    default: break;
  }
  throw std::logic_error("lockstep vectors: not a unit to read");
}

imp::Format format_of(imp::Kind k) {
  switch (k) {
    case imp::Kind::kWycheproof: return imp::Format::kWycheproof;
    case imp::Kind::kCavp: return imp::Format::kCavp;
    case imp::Kind::kBotan: return imp::Format::kBotan;
    case imp::Kind::kKizzycode: return imp::Format::kKizzycode;
    case imp::Kind::kLockstep: return imp::Format::kLockstep;
    default: return imp::Format::kAcvp;
  }
}

constexpr size_t kShownFailures = 20;
constexpr size_t kShownIds = 6;

void print_report(const imp::FileReport& r, const std::string& shown) {
  fmt::print("{}  [{}: {}]  {} case{}, {} skipped, {:.1f} s\n", shown, imp::format_name(r.format),
             r.algorithm, r.cases, r.cases == 1 ? "" : "s", r.skipped_cases(), r.seconds);
  for (const imp::BackendReport& b : r.backends) {
    fmt::print("    {:<22} run {:>5}  passed {:>5}  failed {:>4}  skipped {:>4}  {:>6.1f} s{}\n",
               b.backend->name, b.run, b.passed, b.failed, b.skipped, b.seconds,
               b.failed ? "  FAIL" : "");
    for (size_t i = 0; i < b.failures.size() && i < kShownFailures; ++i)
      fmt::print("      FAIL {}: {}\n", shown, b.failures[i]);
    if (b.failures.size() > kShownFailures)
      fmt::print("      ... and {} more failures\n", b.failures.size() - kShownFailures);
  }
  if (!r.unavailable.empty()) fmt::print("    not available here: {}\n", join(r.unavailable, 16));
  for (const imp::SkipGroup& g : r.skipped)
    fmt::print("    skipped {:>4}: {}  [{}]\n", g.ids.size(), g.reason, join(g.ids, kShownIds));
}

}  // namespace

int cmd_vectors(const std::vector<std::string>& paths, const std::string& backend,
                const std::string& ldt_max, const std::string& ldt_max_default, bool allow_empty) {
  imp::RunOptions opts;
  std::string ldt = ldt_max;
  const char* env = std::getenv("LOCKSTEP_ACVP_LDT_MAX");
  if (ldt.empty() && env && *env) ldt = env;
  // Each limit, when given, must be a byte count ("1G", "8GiB", "0").
  auto set_limit = [](const char* flag, const std::string& text, uint64_t& limit) {
    if (text.empty()) return true;
    const auto v = parse_size(text);
    if (!v) {
      fmt::print(stderr, "lockstep vectors: {} '{}': expected bytes, e.g. 1073741824, 1G, 8GiB, 0\n", flag, text);
      return false;
    }
    limit = *v;
    return true;
  };
  if (!set_limit("--ldt-max", ldt, opts.ldt_max) ||
      !set_limit("--ldt-max-default", ldt_max_default, opts.ldt_max_default))
    return 2;
  const cpu::FeatureSet features = cpu::effective();
  if (!backend.empty()) {
    opts.only = catalog::find_backend(backend);
    if (!opts.only) {
      std::vector<std::string> known;
      for (const catalog::Family* f : catalog::families())
        for (const Backend* b : f->backends()) known.emplace_back(b->name);
      fmt::print(stderr, "lockstep vectors: unknown backend '{}' (known: {})\n", backend, join(known, 64));
      return 2;
    }
    if (!opts.only->usable(features)) {
      fmt::print(stderr, "lockstep vectors: backend {} needs {}, which this CPU lacks (effective: {})\n",
                 opts.only->name, (opts.only->needs - features).to_string(), features.to_string());
      return 1;
    }
  }
  fmt::print("lockstep vectors: {}; ACVP large-data tests up to {}; CPU features: {}\n\n",
             opts.only ? "backend " + std::string(opts.only->name) : std::string("every backend available here"),
             imp::size_text(opts.ldt_max) +
                 (opts.ldt_max_default > opts.ldt_max
                      ? " (" + imp::size_text(opts.ldt_max_default) + " on each family's default backend)"
                      : ""),
             features.to_string());

  int status = 0;
  std::vector<Entry> entries;
  for (const std::string& arg : paths) {
    const fs::path p(arg);
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<fs::path> found;
      for (fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec), end;
           !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec)) found.push_back(it->path());
      if (ec) {
        fmt::print(stderr, "lockstep vectors: {}: {}\n", arg, ec.message());
        status = 1;
      }
      std::sort(found.begin(), found.end());
      for (const fs::path& f : found)
        entries.push_back({f, (fs::path(arg) / f.lexically_relative(p)).generic_string(), {}, {}});
    } else if (fs::is_regular_file(p, ec)) {
      entries.push_back({p, arg, {}, {}});
    } else {
      // A FIFO or a device would block or never end: named, never read.
      fmt::print(stderr, "lockstep vectors: {}: {}{}\n", arg, path_kind(arg),
                 path_missing(arg) ? "" : ", not a vector file or a directory of them");
      status = 1;
    }
  }

  std::vector<Unit> units;
  std::vector<std::pair<std::string, std::string>> ignored;  // shown, why
  for (Entry& e : entries) {
    if (!examine(e)) {
      status = 1;
      e.taken = true;
    }
  }
  add_counterparts(entries);
  group_acvp(entries, units, ignored);
  for (Entry& e : entries) {
    if (e.taken) continue;
    if (e.detected.kind == imp::Kind::kIgnored) ignored.emplace_back(e.shown, e.detected.why);
    else units.push_back({&e, nullptr, e.shown});
  }
  std::sort(units.begin(), units.end(), [](const Unit& a, const Unit& b) { return a.shown < b.shown; });

  std::map<imp::Format, Totals> totals;
  bool missing_backend = false;
  for (const Unit& u : units) {
    const imp::Format format = format_of(u.first->detected.kind);
    Totals& t = totals[format];
    ++t.files;
    imp::ImportedFile file;
    const auto start = std::chrono::steady_clock::now();
    try {
      file = read_unit(u);
    } catch (const vectors::VectorError& e) {
      fmt::print("{}  [{}]  MALFORMED (see standard error)\n", u.shown, imp::format_name(format));
      std::fflush(stdout);
      fmt::print(stderr, "lockstep vectors: malformed {} file: {}\n", imp::format_name(format), e.what());
      ++t.malformed;
      status = 1;
      continue;
    }
    imp::FileReport r = imp::run_file(file, opts);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    print_report(r, u.shown);
    t.cases += r.cases;
    t.skipped += r.skipped_cases();
    t.seconds += r.seconds;
    for (const imp::SkipGroup& g : r.skipped) t.reasons[g.reason] += g.ids.size();
    for (const imp::BackendReport& b : r.backends) {
      t.runs += b.run;
      t.passed += b.passed;
      t.failed += b.failed;
    }
    if (r.failed()) status = 1;
    if (!r.unavailable.empty()) missing_backend = true;
  }

  if (!ignored.empty()) {
    std::map<std::string, std::vector<std::string>> by_reason;
    for (const auto& [shown, why] : ignored) by_reason[why].push_back(shown);
    fmt::print("\nignored, {} file{}:\n", ignored.size(), ignored.size() == 1 ? "" : "s");
    for (const auto& [why, files] : by_reason) {
      fmt::print("  {} ({}):\n", why, files.size());
      for (const std::string& f : files) fmt::print("      {}\n", f);
    }
  }

  fmt::print("\n{:<12} {:>6} {:>7} {:>8} {:>8} {:>8} {:>7} {:>10} {:>9}\n", "source", "files",
             "cases", "skipped", "runs", "passed", "failed", "malformed", "time");
  Totals all;
  for (const auto& [format, t] : totals) {
    fmt::print("{:<12} {:>6} {:>7} {:>8} {:>8} {:>8} {:>7} {:>10} {:>8.1f}s\n", imp::format_name(format),
               t.files, t.cases, t.skipped, t.runs, t.passed, t.failed, t.malformed, t.seconds);
    all.files += t.files, all.cases += t.cases, all.skipped += t.skipped, all.runs += t.runs;
    all.passed += t.passed, all.failed += t.failed, all.malformed += t.malformed, all.seconds += t.seconds;
  }
  fmt::print("{:<12} {:>6} {:>7} {:>8} {:>8} {:>8} {:>7} {:>10} {:>8.1f}s\n", "total", all.files,
             all.cases, all.skipped, all.runs, all.passed, all.failed, all.malformed, all.seconds);
  for (const auto& [format, t] : totals) {
    if (t.reasons.empty()) continue;
    fmt::print("\nskipped in {} files, by reason:\n", imp::format_name(format));
    for (const auto& [why, n] : t.reasons) fmt::print("  {:>5}  {}\n", n, why);
  }

  std::fflush(stdout);
  if (units.empty()) {
    fmt::print(stderr, "lockstep vectors: no vector file to run in {}\n", join(paths, 8));
    status = 1;
  } else if (all.runs == 0) {
    // Nothing checked is no pass: every case skipped, or no cases at all.
    fmt::print(stderr, "lockstep vectors: 0 cases run ({} case{} in {} file{}, {} skipped){}\n", all.cases,
               all.cases == 1 ? "" : "s", all.files, all.files == 1 ? "" : "s", all.skipped,
               allow_empty ? "; allowed by --allow-empty" : "; --allow-empty accepts that");
    if (!allow_empty) status = 1;
  }
  if (missing_backend && std::getenv("LOCKSTEP_REQUIRE_ALL") &&
      std::string(std::getenv("LOCKSTEP_REQUIRE_ALL")) == "1") {
    fmt::print(stderr, "lockstep vectors: LOCKSTEP_REQUIRE_ALL=1 and some backends cannot run here\n");
    status = 1;
  }
  fmt::print("\nlockstep vectors: {}\n", status == 0 ? "PASS" : "FAIL");
  return status;
}

}  // namespace lockstep::cli
