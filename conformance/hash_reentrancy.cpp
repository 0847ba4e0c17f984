// Reentrancy: the kernel's interrupt-context cases, with a SIGALRM handler in
// the role of the interrupt, and the same question asked of threads. A
// backend that keeps scratch state outside the caller's context (a static
// buffer, a cached key schedule) gives wrong answers here.
#include <sys/time.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "hash_conformance.h"
#include "rounds.h"

namespace lockstep::conformance {
namespace {

using Clock = std::chrono::steady_clock;

// The timer fires every 100 us, or every four handler runs' worth of time
// where a handler run is slower than 25 us (trap emulators take far longer:
// a period shorter than the handler would starve the main flow for ever).
// The verdict never depends on the machine's speed: the main flow keeps
// hashing until the handler has run exactly as often as it must
// (kHandlerRuns), however long that takes, and every result is checked. Only
// a machine so slow or busy that this takes longer than kGiveUp makes the
// test give up, and it then reports SKIP with the count, not FAIL (after
// checking every result it did get).
constexpr long kMinTimerUsec = 100;
constexpr uint32_t kHandlerRuns = 200;
constexpr auto kGiveUp = std::chrono::seconds(240);

// AlarmTimer installs `handler` for SIGALRM and a repeating ITIMER_REAL, and
// puts back the previous handler and timer when it goes out of scope.
class AlarmTimer {
 public:
  AlarmTimer(void (*handler)(int), long period_usec) {
    struct sigaction sa = {};
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    ok_ = sigaction(SIGALRM, &sa, &old_action_) == 0;
    itimerval t = {};
    t.it_interval.tv_sec = period_usec / 1000000;
    t.it_interval.tv_usec = period_usec % 1000000;
    t.it_value = t.it_interval;
    ok_ = ok_ && setitimer(ITIMER_REAL, &t, &old_timer_) == 0;
  }
  ~AlarmTimer() {
    const itimerval off = {};
    setitimer(ITIMER_REAL, &off, nullptr);
    sigaction(SIGALRM, &old_action_, nullptr);
    setitimer(ITIMER_REAL, &old_timer_, nullptr);
  }
  AlarmTimer(const AlarmTimer&) = delete;
  AlarmTimer& operator=(const AlarmTimer&) = delete;
  bool ok() const { return ok_; }

 private:
  bool ok_ = false;
  struct sigaction old_action_ = {};
  itimerval old_timer_ = {};
};

// timer_period returns the timer period for a handler that hashes up to
// `len` bytes through `b`: four times the fastest of three timed runs, and
// never below kMinTimerUsec.
long timer_period(const catalog::HashAlgorithm& alg, const Backend* b, size_t len) {
  const Bytes msg(len, 0x5a);
  Bytes out(alg.digest_size);
  Clock::duration best = Clock::duration::max();
  for (int i = 0; i < 3; ++i) {
    const Clock::time_point t0 = Clock::now();
    alg.digest(msg.data(), msg.size(), out.data(), b);
    best = std::min(best, Clock::now() - t0);
  }
  const long us = static_cast<long>(std::chrono::duration_cast<std::chrono::microseconds>(best).count());
  return std::max(kMinTimerUsec, 4 * us);
}

// ---- InterruptContext: one-shot hashes in the handler ----

constexpr size_t kIrqLens[] = {255, 256, 1000};  // one message per length
constexpr size_t kMaxDigest = 64;

struct OneShotState {
  const catalog::HashAlgorithm* alg;
  const Backend* backend;
  const uint8_t* msgs[std::size(kIrqLens)];
  uint8_t expected[std::size(kIrqLens)][kMaxDigest];
  std::atomic<uint32_t> seq{0}, runs{0}, mismatches{0};
};
std::atomic<OneShotState*> g_one_shot{nullptr};

void one_shot_handler(int) {
  const int saved_errno = errno;
  if (OneShotState* s = g_one_shot.load(std::memory_order_acquire)) {
    const uint32_t i = s->seq.fetch_add(1, std::memory_order_relaxed) % std::size(kIrqLens);
    uint8_t out[kMaxDigest];
    s->alg->digest(s->msgs[i], kIrqLens[i], out, s->backend);
    if (std::memcmp(out, s->expected[i], s->alg->digest_size) != 0)
      s->mismatches.fetch_add(1, std::memory_order_relaxed);
    s->runs.fetch_add(1, std::memory_order_release);
  }
  errno = saved_errno;
}

// ---- InterruptContextIncremental: shared incremental computations ----

constexpr size_t kIncDataLen = 16384;
constexpr int kIncCtxs = 3;

struct IncCtx {
  void* ctx;
  std::atomic<int> in_use{0};
  size_t offset = 0;
  int step = 0;
};

struct IncState {
  const catalog::HashAlgorithm* alg;
  const Backend* backend;
  const uint8_t* data;
  uint8_t expected[kMaxDigest];
  std::vector<size_t> update_lens;  // steps: init, one per entry, final
  IncCtx ctxs[kIncCtxs];
  std::atomic<uint32_t> handler_runs{0}, finals{0}, mismatches{0}, no_free_ctx{0};
};
std::atomic<IncState*> g_inc{nullptr};

// inc_step advances one of the shared computations by one step: init, one
// update or final. The main flow and the handler both call it, so a
// computation can be started in one and continued in the other. It takes
// whichever context is free; at most two callers run at once (the handler
// does not interrupt itself), so one of the three always is.
void inc_step(IncState* s) {
  IncCtx* c = nullptr;
  for (IncCtx& x : s->ctxs) {
    int expected = 0;
    if (x.in_use.compare_exchange_strong(expected, 1, std::memory_order_acquire)) {
      c = &x;
      break;
    }
  }
  if (!c) {
    s->no_free_ctx.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const int num_steps = static_cast<int>(s->update_lens.size()) + 2;
  if (c->step == 0) {
    s->alg->init(c->ctx, s->backend);
    c->offset = 0;
    c->step = 1;
  } else if (c->step < num_steps - 1) {
    const size_t len = s->update_lens[c->step - 1];
    s->alg->update(c->ctx, s->data + c->offset, len);
    c->offset += len;
    ++c->step;
  } else {
    uint8_t out[kMaxDigest];
    s->alg->final(c->ctx, out);
    if (c->offset != kIncDataLen || std::memcmp(out, s->expected, s->alg->digest_size) != 0)
      s->mismatches.fetch_add(1, std::memory_order_relaxed);
    s->finals.fetch_add(1, std::memory_order_relaxed);
    c->step = 0;
  }
  c->in_use.store(0, std::memory_order_release);
}

void inc_handler(int) {
  const int saved_errno = errno;
  if (IncState* s = g_inc.load(std::memory_order_acquire)) {
    inc_step(s);
    s->handler_runs.fetch_add(1, std::memory_order_release);
  }
  errno = saved_errno;
}

}  // namespace

// Test that hashes computed in a signal handler, interrupting hashes in the
// main flow, both come out right: a SIGALRM (see AlarmTimer) hashes one of three
// fixed messages through the backend and compares with the expected digest
// (reference.h), while the main flow hashes other messages, one-shot and
// incrementally, and checks them the same way.
TEST_P(HashConformance, InterruptContext) {
  ASSERT_LE(digest_size(), kMaxDigest);
  auto state = std::make_unique<OneShotState>();
  state->alg = &alg();
  state->backend = backend();
  std::vector<Bytes> irq_msgs;
  for (size_t i = 0; i < std::size(kIrqLens); ++i) {
    irq_msgs.push_back(rng().bytes(kIrqLens[i]));
    state->msgs[i] = irq_msgs.back().data();
    const Bytes want = expected_digest(irq_msgs.back());
    std::memcpy(state->expected[i], want.data(), want.size());
  }
  // The main flow's messages and their expected digests.
  std::vector<Bytes> msgs, wants;
  for (int i = 0; i < 8; ++i) {
    msgs.push_back(rng().bytes(rng().length(4096)));
    wants.push_back(expected_digest(msgs.back()));
  }

  RawCtx ctx(alg().ctx_size, alg().ctx_align);
  Bytes got(digest_size());
  uint64_t main_rounds = 0, main_mismatches = 0;
  size_t first_bad_len = 0;
  {
    AlarmTimer timer(one_shot_handler, timer_period(alg(), backend(), kIrqLens[2]));
    ASSERT_TRUE(timer.ok()) << "sigaction/setitimer: " << std::strerror(errno);
    g_one_shot.store(state.get(), std::memory_order_release);
    const Clock::time_point start = Clock::now();
    // At least one main round, then until the handler has run enough.
    do {
      const Bytes& msg = msgs[main_rounds % msgs.size()];
      const Bytes& want = wants[main_rounds % msgs.size()];
      alg().digest(msg.data(), msg.size(), got.data(), backend());
      bool bad = got != want;
      alg().init(ctx.get(), backend());
      const size_t half = msg.size() / 2;
      alg().update(ctx.get(), msg.data(), half);
      alg().update(ctx.get(), msg.data() + half, msg.size() - half);
      alg().final(ctx.get(), got.data());
      bad = bad || got != want;
      if (bad && main_mismatches++ == 0) first_bad_len = msg.size();
      ++main_rounds;
    } while (state->runs.load(std::memory_order_acquire) < kHandlerRuns && Clock::now() - start < kGiveUp);
  }
  g_one_shot.store(nullptr, std::memory_order_release);

  const uint32_t runs = state->runs.load();
  EXPECT_GT(main_rounds, 0u);
  EXPECT_EQ(state->mismatches.load(), 0u)
      << label() << ": wrong digest in the signal handler, " << state->mismatches.load() << " of "
      << runs << " runs (message lengths 255, 256, 1000)";
  EXPECT_EQ(main_mismatches, 0u) << label() << ": wrong digest in the interrupted main flow, "
                                 << main_mismatches << " of " << main_rounds
                                 << " rounds, first with len=" << first_bad_len;
  if (runs < kHandlerRuns)
    GTEST_SKIP() << label() << ": the SIGALRM handler ran " << runs << " of " << kHandlerRuns
                 << " times before the " << kGiveUp.count()
                 << " s cap (a very slow or busy machine); every result so far was right";
}

// Test that an incremental computation can be carried on across the
// interrupted flow and the handler: both advance three shared contexts one
// step (init, an update, or final) at a time, taking whichever is free, so
// one hash is started in one context of execution and finished in another.
// Every final digest must equal the expected digest of the data.
TEST_P(HashConformance, InterruptContextIncremental) {
  ASSERT_LE(digest_size(), kMaxDigest);
  auto state = std::make_unique<IncState>();
  state->alg = &alg();
  state->backend = backend();
  const Bytes data = rng().bytes(kIncDataLen);
  state->data = data.data();
  const Bytes want = expected_digest(data);
  std::memcpy(state->expected, want.data(), want.size());
  size_t remaining = kIncDataLen;
  while (remaining && state->update_lens.size() < 31) {
    const size_t len = rng().length(std::min<size_t>(remaining, 4096));
    state->update_lens.push_back(len);
    remaining -= len;
  }
  if (remaining) state->update_lens.push_back(remaining);
  std::vector<std::unique_ptr<RawCtx>> storage;
  for (IncCtx& c : state->ctxs) {
    storage.push_back(std::make_unique<RawCtx>(alg().ctx_size, alg().ctx_align));
    c.ctx = storage.back()->get();
  }
  std::string lens;
  for (const size_t l : state->update_lens) lens += " " + std::to_string(l);
  CASE_TRACE("update lengths:" + lens);

  {
    AlarmTimer timer(inc_handler, timer_period(alg(), backend(), 4096));
    ASSERT_TRUE(timer.ok()) << "sigaction/setitimer: " << std::strerror(errno);
    g_inc.store(state.get(), std::memory_order_release);
    const Clock::time_point start = Clock::now();
    do {
      inc_step(state.get());
    } while (state->handler_runs.load(std::memory_order_acquire) < kHandlerRuns &&
             Clock::now() - start < kGiveUp);
  }
  g_inc.store(nullptr, std::memory_order_release);

  const uint32_t runs = state->handler_runs.load();
  EXPECT_EQ(state->no_free_ctx.load(), 0u) << "a step found no free context";
  EXPECT_EQ(state->mismatches.load(), 0u)
      << label() << ": " << state->mismatches.load() << " of " << state->finals.load()
      << " shared incremental computations gave a wrong digest";
  if (runs < kHandlerRuns)
    GTEST_SKIP() << label() << ": the SIGALRM handler ran " << runs << " of " << kHandlerRuns
                 << " times before the " << kGiveUp.count()
                 << " s cap (a very slow or busy machine); every result so far was right";
  // Enough steps ran to finish computations: 200 handler steps alone are
  // several whole hashes of at most 33 steps.
  EXPECT_GT(state->finals.load(), 0u) << label() << ": no computation was finished";
}

// Test that threads hashing different data through the same backend at
// the same time all get right answers: four threads, each with its own
// messages, one-shot and incremental, checked against expected digests
// computed beforehand.
TEST_P(HashConformance, Threads) {
  constexpr int kThreads = 4;
  constexpr int kMsgsPerThread = 8;
  constexpr int kIterations = rounds(400, 100);  // a constant: lambdas use it uncaptured

  struct Work {
    std::vector<Bytes> msgs, wants;
    uint32_t mismatches = 0;
    int first_bad_iteration = -1;
    size_t first_bad_len = 0;
  };
  std::vector<Work> work(kThreads);
  for (Work& w : work) {
    for (int i = 0; i < kMsgsPerThread; ++i) {
      w.msgs.push_back(rng().bytes(rng().length(4096)));
      w.wants.push_back(expected_digest(w.msgs.back()));
    }
  }

  const catalog::HashAlgorithm& a = alg();
  const Backend* b = backend();
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (Work& w : work) {
    threads.emplace_back([&a, b, &w, &ready] {
      RawCtx ctx(a.ctx_size, a.ctx_align);
      Bytes got(a.digest_size);
      // Start together, so that the threads really overlap.
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      for (int it = 0; it < kIterations; ++it) {
        const Bytes& msg = w.msgs[it % kMsgsPerThread];
        const Bytes& want = w.wants[it % kMsgsPerThread];
        if (it % 2 == 0) {
          a.digest(msg.data(), msg.size(), got.data(), b);
        } else {
          a.init(ctx.get(), b);
          const size_t third = msg.size() / 3;
          a.update(ctx.get(), msg.data(), third);
          a.update(ctx.get(), msg.data() + third, msg.size() - third);
          a.final(ctx.get(), got.data());
        }
        if (got != want && w.mismatches++ == 0) {
          w.first_bad_iteration = it;
          w.first_bad_len = msg.size();
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();

  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(work[t].mismatches, 0u)
        << label() << ": thread " << t << " got " << work[t].mismatches << " wrong digests of "
        << kIterations << ", first at iteration " << work[t].first_bad_iteration
        << " (len=" << work[t].first_bad_len << ")";
  }
}

}  // namespace lockstep::conformance
