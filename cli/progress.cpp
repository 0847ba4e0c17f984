#include "progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

namespace lockstep::cli {
namespace {

size_t terminal_width() {
  winsize ws{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10) return ws.ws_col;
  return 100;
}

}  // namespace

std::string format_duration(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  return s < 60 ? fmt::format("{}s", s) : fmt::format("{}m{:02}s", s / 60, s % 60);
}

Progress::Progress(std::function<std::string()> status)
    : status_(std::move(status)), tty_(isatty(STDOUT_FILENO) == 1), start_(std::chrono::steady_clock::now()) {
  thread_ = std::thread([this] { loop(); });
}

Progress::~Progress() {
  {
    std::lock_guard lock(m_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  thread_.join();
  std::lock_guard lock(m_);
  if (drawn_) std::fputs("\r\033[K", stdout);
  std::fflush(stdout);
}

std::string Progress::elapsed() const {
  return format_duration(std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
}

void Progress::print(const std::string& text) {
  std::lock_guard lock(m_);
  if (drawn_) std::fputs("\r\033[K", stdout);
  drawn_ = false;
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  if (tty_) draw_locked();
}

void Progress::draw_locked() {
  std::string line = fmt::format("[{}] {}", elapsed(), status_());
  if (tty_) {
    const size_t width = terminal_width() - 1;
    if (line.size() > width) line = line.substr(0, width - 3) + "...";
    std::fputs(("\r\033[K" + line).c_str(), stdout);
    drawn_ = true;
  } else {
    std::fputs((line + "\n").c_str(), stdout);
  }
  std::fflush(stdout);
}

void Progress::loop() {
  const auto period = tty_ ? std::chrono::seconds(1) : std::chrono::seconds(15);
  std::unique_lock lock(m_);
  while (!stop_cv_.wait_for(lock, period, [this] { return stopping_; })) draw_locked();
}

}  // namespace lockstep::cli
