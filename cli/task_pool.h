// A fixed number of worker threads running tasks in the order they were
// added; a task may add more. `lockstep run` uses it to run the suites of
// independent environments (and shards of one environment) side by side.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace lockstep::cli {

class TaskPool {
 public:
  explicit TaskPool(int workers);
  ~TaskPool();
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  void add(std::function<void()> task);
  // wait returns once every task, including those added meanwhile, is done.
  void wait();

 private:
  void work();

  std::mutex m_;
  std::condition_variable wake_, idle_;
  std::deque<std::function<void()>> queue_;
  int busy_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace lockstep::cli
