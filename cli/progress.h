// The status line of a long command: rewritten in place every second on a
// terminal, printed as a plain line every 15 s otherwise (CI logs), with
// finished results printed above it as they come.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace lockstep::cli {

class Progress {
 public:
  // `status` builds the line (without the elapsed time); it is called from
  // the progress thread.
  explicit Progress(std::function<std::string()> status);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // print writes `text` to stdout, above the status line on a terminal.
  void print(const std::string& text);
  // elapsed since construction, as "1m05s".
  std::string elapsed() const;

 private:
  void loop();
  void draw_locked();

  std::function<std::string()> status_;
  const bool tty_;
  const std::chrono::steady_clock::time_point start_;
  std::mutex m_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  bool drawn_ = false;  // a status line is on screen (terminal only)
  std::thread thread_;
};

// format_duration renders seconds as "42s" or "3m07s".
std::string format_duration(double seconds);

}  // namespace lockstep::cli
