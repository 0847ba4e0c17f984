#include "run/run_select.h"

#include <fnmatch.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace lockstep::cli {
namespace {

bool any_glob(const std::vector<std::string>& patterns, const std::string& text) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& p) { return glob_match(p, text); });
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

bool glob_match(const std::string& pattern, const std::string& text) {
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

bool gtest_filter_match(const std::string& filter, const std::string& full_name) {
  if (filter.empty()) return true;
  const size_t dash = filter.find('-');
  const std::string positive = dash == std::string::npos ? filter : filter.substr(0, dash);
  const std::string negative = dash == std::string::npos ? "" : filter.substr(dash + 1);
  const std::vector<std::string> pos = split(positive, ':');
  const bool in = pos.empty() || any_glob(pos, full_name);
  return in && !any_glob(split(negative, ':'), full_name);
}

const std::vector<std::string>& check_names() {
  static const std::vector<std::string> names = {"conformance", "vectors", "fuzz", "abi", "isa", "residue", "ct", "huge", "dispatch", "kunit"};
  return names;
}

bool Selection::env(const std::string& id) const { return envs.empty() || any_glob(envs, id); }

bool Selection::backend(const std::string& name) const {
  const std::string family = name.substr(0, name.find('/'));
  if (!families.empty() && std::find(families.begin(), families.end(), family) == families.end())
    return false;
  return backends.empty() || any_glob(backends, name);
}

bool Selection::check(const std::string& column) const {
  return checks.empty() || std::find(checks.begin(), checks.end(), column) != checks.end();
}

std::optional<std::vector<Expectation>> read_expectations(const std::string& path,
                                                          const std::vector<std::string>& env_ids,
                                                          std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = fmt::format("{}: cannot read the --expect manifest", path);
    return std::nullopt;
  }
  std::vector<Expectation> out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    if (f.empty()) continue;
    const std::string where = fmt::format("{}:{}", path, number);
    if (f.size() != 3) {
      error = fmt::format("{}: expected three fields ENV BACKEND CHECK, found {}", where, f.size());
      return std::nullopt;
    }
    if (std::none_of(env_ids.begin(), env_ids.end(), [&](const std::string& id) { return glob_match(f[0], id); })) {
      std::string known;
      for (const std::string& id : env_ids) known += " " + id;
      error = fmt::format("{}: field ENV: '{}' names no environment (known:{})", where, f[0], known);
      return std::nullopt;
    }
    if (f[1].find('/') == std::string::npos) {
      error = fmt::format("{}: field BACKEND: '{}' is not FAMILY/NAME (a glob such as 'sha256/*')", where, f[1]);
      return std::nullopt;
    }
    if (std::none_of(check_names().begin(), check_names().end(),
                     [&](const std::string& c) { return glob_match(f[2], c); })) {
      error = fmt::format("{}: field CHECK: '{}' names no check ({})", where, f[2], fmt::join(check_names(), ", "));
      return std::nullopt;
    }
    out.push_back({where, f[0], f[1], f[2]});
  }
  if (out.empty()) {
    error = fmt::format("{}: the --expect manifest lists no cell", path);
    return std::nullopt;
  }
  return out;
}

}  // namespace lockstep::cli
