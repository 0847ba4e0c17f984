// Where a row of lockstep's own backends runs when a run selects several CPU
// models of one emulator: in the lowest of them that has the row's needs
// (the fewest features; the first in emulation/cpu_models.json on a tie),
// and nowhere else. The same code under the same emulator in a model with
// more features proves nothing more, and the lowest one is where code that
// executes more than it declares faults. A module's rows run everywhere: a
// kernel glue selects its own path by the CPU, so its code differs per model;
// but a tree's rows through one function, which have no glue of their own,
// are placed as lockstep's own (RunOptions::same_code_everywhere).
#pragma once

#include <string>
#include <vector>

namespace lockstep::cli {

// runs_in returns the model where the row with `needs` (feature names,
// space-separated) runs, when that is another than `env_id`; "" when it
// runs here (or `env_id` is no CPU model). `selected` lists the ids of the
// environments the run has available.
std::string runs_in(const std::string& env_id, const std::string& needs, const std::vector<std::string>& selected);

}  // namespace lockstep::cli
