#include "seconds_option.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

namespace lockstep::cli {

CLI::Validator seconds_option(bool zero_allowed, double max) {
  const std::string range = fmt::format("0 {} S <= {:g}", zero_allowed ? "<=" : "<", max);
  return CLI::Validator(
      [zero_allowed, max, range](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(text.c_str(), &end);
        const bool number = !text.empty() && end && *end == '\0' && errno == 0 && std::isfinite(v);
        if (number && (zero_allowed ? v >= 0 : v > 0) && v <= max) return "";
        return fmt::format("'{}' is not a number of seconds with {}", text, range);
      },
      "SECONDS", "seconds");
}

}  // namespace lockstep::cli
