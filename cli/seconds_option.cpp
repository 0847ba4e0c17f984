#include "seconds_option.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

namespace lockstep::cli {

CLI::Validator seconds_option(bool zero_allowed, double max, double min) {
  const std::string range = min > 0 ? fmt::format("{}{:g} <= S <= {:g}", zero_allowed ? "S = 0 or " : "", min, max)
                                    : fmt::format("0 {} S <= {:g}", zero_allowed ? "<=" : "<", max);
  return CLI::Validator(
      [zero_allowed, max, min, range](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(text.c_str(), &end);
        const bool number = !text.empty() && end && *end == '\0' && errno == 0 && std::isfinite(v);
        if (number && ((zero_allowed && v == 0) || (v > 0 && v >= min)) && v <= max) return "";
        return fmt::format("'{}' is not a number of seconds with {}", text, range);
      },
      "SECONDS", "seconds");
}

}  // namespace lockstep::cli
