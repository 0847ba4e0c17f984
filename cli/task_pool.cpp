#include "task_pool.h"

namespace lockstep::cli {

TaskPool::TaskPool(int workers) {
  for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
}

TaskPool::~TaskPool() {
  {
    std::lock_guard lock(m_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void TaskPool::add(std::function<void()> task) {
  {
    std::lock_guard lock(m_);
    queue_.push_back(std::move(task));
  }
  wake_.notify_one();
}

void TaskPool::wait() {
  std::unique_lock lock(m_);
  idle_.wait(lock, [this] { return queue_.empty() && busy_ == 0; });
}

void TaskPool::work() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(m_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      task = std::move(queue_.front());
      queue_.pop_front();
      ++busy_;
    }
    task();
    {
      std::lock_guard lock(m_);
      --busy_;
      if (queue_.empty() && busy_ == 0) idle_.notify_all();
    }
  }
}

}  // namespace lockstep::cli
