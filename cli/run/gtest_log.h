// How far a running GoogleTest binary is, read from its log as it grows:
// the progress line of `lockstep run` counts finished tests with it.
#pragma once

#include <filesystem>

namespace lockstep::cli {

// finished_in_log counts the tests the log says have ended (OK, FAILED,
// SKIPPED), up to the summary at its end, which lists some of them again.
// The "[==========] Running N tests" line at its start is no summary.
int finished_in_log(const std::filesystem::path& log);

}  // namespace lockstep::cli
