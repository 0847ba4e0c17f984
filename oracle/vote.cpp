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
  // Largest first; equal groups keep the order the caller gave. (An index
  // sort rather than std::stable_sort, whose libstdc++ 12 implementation
  // clang 19 flags as deprecated.)
  std::vector<size_t> order(vote.groups.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const size_t sa = vote.groups[a].size(), sb = vote.groups[b].size();
    return sa != sb ? sa > sb : a < b;
  });
  std::vector<std::vector<std::string>> sorted;
  for (size_t i : order) sorted.push_back(std::move(vote.groups[i]));
  vote.groups = std::move(sorted);
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
