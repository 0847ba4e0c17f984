// tally: who agrees with whom.
#include <algorithm>
#include <string>

#include "oracle.h"

namespace lockstep::oracle {

Vote tally(const std::vector<Opinion>& opinions) {
  std::vector<const Bytes*> values;  // one per group, in order of first appearance
  Vote vote;
  for (const Opinion& o : opinions) {
    size_t g = 0;
    while (g < values.size() && *values[g] != o.value) ++g;
    if (g == values.size()) {
      values.push_back(&o.value);
      vote.groups.emplace_back();
    }
    vote.groups[g].push_back(o.who);
  }
  // Largest first; stable, so equal groups keep the order the caller gave.
  std::stable_sort(vote.groups.begin(), vote.groups.end(),
                   [](const auto& a, const auto& b) { return a.size() > b.size(); });
  return vote;
}

std::string Vote::to_string() const {
  std::string out = "agree:";
  for (const auto& group : groups) {
    out += " [";
    for (size_t i = 0; i < group.size(); ++i) {
      if (i) out += ' ';
      out += group[i];
    }
    out += ']';
  }
  return out;
}

}  // namespace lockstep::oracle
