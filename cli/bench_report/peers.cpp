// The closest-peer table: each of lockstep's own backends beside the module
// backends (a kernel's or U-Boot's, from `lockstep bench --tree`) that do
// the same job with the same ISA, so every speed claim stands next to the
// implementation it would replace. Pairs come from what the backends
// declare in the run's JSON (bench.h's describe_backends), never from names:
// a module stands beside the own backends whose needs differ from its own
// by the fewest features, sharing at least one (the kernel's SHA-NI glue
// also asks for SSSE3, which lockstep's x86-shani does not).
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>

#include "bench_report/report.h"
#include "bench_report/report_internal.h"

namespace lockstep::cli::bench_report {

namespace {

using detail::at;
using detail::mbps_text;
using detail::ratio;
using detail::row;

std::string needs_text(const Series& s) { return s.needs.empty() ? "no needs" : "needs " + s.needs; }

std::set<std::string> features(const std::string& needs) {
  std::set<std::string> out;
  std::istringstream words(needs);
  for (std::string w; words >> w;) out.insert(w);
  return out;
}

// How far apart two sets of needs are: the features only one of them
// declares, or nullopt when they share none (no common ISA to compare).
std::optional<size_t> distance(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::vector<std::string> both, either;
  std::ranges::set_intersection(a, b, std::back_inserter(both));
  if (both.empty()) return std::nullopt;
  std::ranges::set_symmetric_difference(a, b, std::back_inserter(either));
  return either.size();
}

bool pairable(const Series& own) {
  // Generic code has no ISA to compare; a run without roles cannot pair.
  return !own.anchor && !own.generic() && (own.role == "own" || own.role == "default");
}

// closest_own is the own backends nearest to module `m` by distance(),
// every one of them on a tie; none when m shares no feature with any.
std::vector<const Series*> closest_own(const Algorithm& a, const Series& m) {
  std::vector<const Series*> out;
  std::optional<size_t> best;
  const std::set<std::string> want = features(m.needs);
  for (const Series& own : a.series) {
    if (!pairable(own)) continue;
    const std::optional<size_t> d = distance(want, features(own.needs));
    if (!d || (best && *d > *best)) continue;
    if (!best || *d < *best) out.clear();
    best = d;
    out.push_back(&own);
  }
  return out;
}

// Why `peer` stands beside `own`, for the table's heading.
std::string why(const Series& own, const Series& peer) {
  if (peer.needs == own.needs) return "the same needs: " + peer.needs;
  if (!peer.needs.empty())
    return fmt::format("the closest needs: {} declares {}, and no own backend declares exactly that", peer.label,
                       peer.needs);
  return fmt::format("{} declares no needs (its init picks the path from the CPU), so it stands beside "
                     "lockstep's default here, {}",
                     peer.label, own.label);
}

std::string pair_table(const Algorithm& a, const Series& own, const Series& peer) {
  std::string out = fmt::format("### {}: {} ({}) beside {}\n\nWhy this pair: {}.\n\n", a.display, own.id,
                                needs_text(own), peer.id, why(own, peer));
  if (own.mbps.empty() || peer.mbps.empty()) {
    const Series& idle = own.mbps.empty() ? own : peer;
    return out + fmt::format("Not run here: {} ({}).\n\n", idle.id, idle.skipped.empty() ? "no result" : idle.skipped);
  }
  out += row({"bytes", own.label + " MB/s", peer.label + " MB/s", "own / peer"});
  out += row({"---:", "---:", "---:", "---:"});
  for (const size_t len : a.lengths) {
    const std::optional<double> q = ratio(at(&own, len), at(&peer, len));
    out += row({std::to_string(len), mbps_text(at(&own, len)), mbps_text(at(&peer, len)),
                q ? fmt::format("{:.2f}x", *q) : "-"});
  }
  return out + "\n";
}

}  // namespace

std::vector<Peer> peers(const Algorithm& a) {
  std::vector<Peer> out;
  for (const Series& own : a.series) {
    if (!pairable(own)) continue;
    Peer p{&own, {}};
    for (const Series& m : a.series) {
      if (m.anchor || m.role != "module") continue;
      const bool glue_beside_default = m.needs.empty() && own.role == "default";
      if (glue_beside_default || std::ranges::count(closest_own(a, m), &own) > 0) p.peers.push_back(&m);
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::string peer_table(const Results& r) {
  std::string body, lonely;
  bool any_module = false;
  for (const Algorithm& a : r.algorithms) {
    for (const Series& s : a.series) any_module = any_module || s.role == "module";
    for (const Peer& p : peers(a)) {
      if (p.peers.empty()) lonely += fmt::format("- {} ({}): no peer\n", p.own->id, needs_text(*p.own));
      for (const Series* peer : p.peers) body += pair_table(a, *p.own, *peer);
    }
  }
  // Without a module there is nothing to stand beside: no section at all.
  if (!any_module) return {};
  std::string out =
      "## Closest peers: lockstep's backends beside a module's of the same ISA\n\n"
      "Each of lockstep's own non-generic backends beside the module backends of its family whose needs "
      "(ISA features) are closest to its own: the same, or else the fewest features apart. A module that declares none, such as a kernel's glue, stands beside "
      "the backend lockstep's dispatch chooses on this CPU. own / peer above 1: lockstep's is faster.\n\n";
  out += body;
  if (!lonely.empty()) out += "Without a peer in this run:\n\n" + lonely;
  return out;
}

}  // namespace lockstep::cli::bench_report
