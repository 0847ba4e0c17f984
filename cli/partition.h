// partition_stably(v, first): the elements for which first() holds, then the
// rest, each group in its order. std::stable_partition does the same, but
// libstdc++ 12's uses std::get_temporary_buffer, which clang 19 reports as
// deprecated (an error under -Werror).
#pragma once

#include <utility>
#include <vector>

namespace lockstep::cli {

template <class T, class Pred>
void partition_stably(std::vector<T>& v, Pred first) {
  std::vector<T> out;
  out.reserve(v.size());
  for (T& e : v)
    if (first(e)) out.push_back(std::move(e));
  for (T& e : v)
    if (!first(e)) out.push_back(std::move(e));
  v = std::move(out);
}

}  // namespace lockstep::cli
