// Reentrancy: the kernel's interrupt-context cases, with a SIGALRM handler in
// the role of the interrupt, and the same question asked of threads. A
// backend that keeps scratch state outside the caller's context (a static
// buffer, a cached key schedule) gives wrong answers here.
#include <pthread.h>
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
// The verdict never depends on the machine's speed: the interrupted callers
// keep hashing until the handler has run as often as it must (kHandlerRuns)
// and, in InterruptContext, until they have made their calls (irq_calls),
// however long that takes, and every result is checked. Only a machine so
// slow or busy that this takes longer than kGiveUp makes the test give up,
// and it then reports SKIP with the counts, not FAIL (after checking every
// result it did get).
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

// The kernel's interrupt_context_1: three 256-byte messages, hashed by
// three callers at once while an interrupt hashes them too, until 100,000
// calls have been made (kunit_run_irq_test's max_iterations, which counts
// the calls of every context). Here the three callers are threads and every
// one of the 100,000 is a call of theirs, made with the timer interrupting
// them; the handler's own calls come on top. Sanitizer builds make 20,000
// (rounds.h), and so do backends that run under one of lockstep's trap
// emulators (irq_calls).
constexpr size_t kIrqDataLen = 256;
constexpr size_t kIrqBuffers = 3;
constexpr int kIrqCallers = 3;
constexpr uint64_t kIrqCalls = rounds(100000, 20000);
constexpr uint64_t kIrqCallsTrapped = 20000;
constexpr size_t kMaxDigest = 64;

// irq_calls is how many calls the callers make through `b`: under a trap
// emulator every block it compresses is a SIGILL and an emulated
// instruction stream, a call costs a hundred native ones, and 100,000 would
// take most of a minute per row (SHA-512 under the sha512ext emulator).
uint64_t irq_calls(const Backend* b) {
  const bool trapped = (b->needs.bits() & cpu::state().in_process_emulated.bits()) != 0;
  return trapped ? std::min(kIrqCalls, kIrqCallsTrapped) : kIrqCalls;
}

struct OneShotState {
  const catalog::HashAlgorithm* alg;
  const Backend* backend;
  const uint8_t* msgs[kIrqBuffers];
  uint8_t expected[kIrqBuffers][kMaxDigest];
  std::atomic<uint32_t> seq{0}, runs{0}, mismatches{0};
};
std::atomic<OneShotState*> g_one_shot{nullptr};

// How many times the handler has run on this thread: a caller compares it
// before and after a call to tell whether the interrupt landed inside it.
thread_local std::atomic<uint32_t> t_interrupts{0};

void one_shot_handler(int) {
  const int saved_errno = errno;
  if (OneShotState* s = g_one_shot.load(std::memory_order_acquire)) {
    const uint32_t i = s->seq.fetch_add(1, std::memory_order_relaxed) % kIrqBuffers;
    uint8_t out[kMaxDigest];
    s->alg->digest(s->msgs[i], kIrqDataLen, out, s->backend);
    if (std::memcmp(out, s->expected[i], s->alg->digest_size) != 0)
      s->mismatches.fetch_add(1, std::memory_order_relaxed);
    s->runs.fetch_add(1, std::memory_order_release);
    t_interrupts.fetch_add(1, std::memory_order_relaxed);
  }
  errno = saved_errno;
}

// SignalBlock blocks `sig` in the calling thread until unblock() or the end
// of its scope, so that a process-directed signal goes to another thread.
class SignalBlock {
 public:
  explicit SignalBlock(int sig) {
    sigemptyset(&set_);
    sigaddset(&set_, sig);
    ok_ = pthread_sigmask(SIG_BLOCK, &set_, &old_) == 0;
  }
  ~SignalBlock() { unblock(); }
  SignalBlock(const SignalBlock&) = delete;
  SignalBlock& operator=(const SignalBlock&) = delete;
  void unblock() {
    if (ok_) pthread_sigmask(SIG_SETMASK, &old_, nullptr);
    ok_ = false;
  }

 private:
  sigset_t set_, old_;
  bool ok_ = false;
};

// One caller of InterruptContext, and what it saw.
struct IrqCaller {
  uint64_t calls = 0, interrupted = 0, mismatches = 0;
  uint64_t first_bad_call = 0;
  const char* first_bad_form = "";
};

// irq_caller hashes the three messages in turn, one-shot and incrementally
// (split at `split`) by turns, checking every digest, until the shared
// count reaches `target` and the handler has run kHandlerRuns times, or
// `stop` is set.
void irq_caller(OneShotState* s, IrqCaller* me, std::atomic<uint64_t>* calls, uint64_t target,
                std::atomic<bool>* stop, std::atomic<int>* ready, size_t split) {
  sigset_t alrm;
  sigemptyset(&alrm);
  sigaddset(&alrm, SIGALRM);
  pthread_sigmask(SIG_UNBLOCK, &alrm, nullptr);  // the test's thread blocks it
  RawCtx ctx(s->alg->ctx_size, s->alg->ctx_align);
  uint8_t out[kMaxDigest];
  ready->fetch_add(1);
  while (ready->load() < kIrqCallers) std::this_thread::yield();
  for (uint64_t n = 0;; ++n) {
    if (stop->load(std::memory_order_relaxed)) break;
    if (calls->load(std::memory_order_relaxed) >= target &&
        s->runs.load(std::memory_order_acquire) >= kHandlerRuns)
      break;
    const uint32_t i = s->seq.fetch_add(1, std::memory_order_relaxed) % kIrqBuffers;
    const uint32_t before = t_interrupts.load(std::memory_order_relaxed);
    const bool one_shot = n % 2 == 0;
    if (one_shot) {
      s->alg->digest(s->msgs[i], kIrqDataLen, out, s->backend);
    } else {
      s->alg->init(ctx.get(), s->backend);
      s->alg->update(ctx.get(), s->msgs[i], split);
      s->alg->update(ctx.get(), s->msgs[i] + split, kIrqDataLen - split);
      s->alg->final(ctx.get(), out);
    }
    if (t_interrupts.load(std::memory_order_relaxed) != before) ++me->interrupted;
    if (std::memcmp(out, s->expected[i], s->alg->digest_size) != 0 && me->mismatches++ == 0) {
      me->first_bad_call = me->calls;
      me->first_bad_form = one_shot ? "one-shot" : "init/update/update/final";
    }
    ++me->calls;
    calls->fetch_add(1, std::memory_order_relaxed);
  }
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

// Test that hashes computed in a signal handler, interrupting hashes in
// three other callers, all come out right: the kernel's interrupt_context_1
// (task, softirq and hardirq context at once). Three threads hash one of
// three fixed 256-byte messages each call, one-shot and incrementally by
// turns, until they have made 100,000 calls between them (irq_calls);
// meanwhile a SIGALRM (see AlarmTimer), which this thread blocks so that it
// lands in one of them, hashes the same messages through the same backend.
// Every digest, the handler's too, is compared with the expected one
// (reference.h), computed beforehand. The verdict is only the digests: how
// many calls the interrupt actually landed in is reported, never judged.
TEST_P(HashConformance, InterruptContext) {
  ASSERT_LE(digest_size(), kMaxDigest);
  auto state = std::make_unique<OneShotState>();
  state->alg = &alg();
  state->backend = backend();
  const Bytes data = rng().bytes(kIrqBuffers * kIrqDataLen);
  for (size_t i = 0; i < kIrqBuffers; ++i) {
    state->msgs[i] = data.data() + i * kIrqDataLen;
    const Bytes want = expected_digest({state->msgs[i], kIrqDataLen});
    std::memcpy(state->expected[i], want.data(), want.size());
  }

  std::vector<IrqCaller> callers(kIrqCallers);
  // Each caller's incremental form splits its message inside the first
  // block, at its end, or one byte short of the whole.
  const size_t splits[kIrqCallers] = {1, block_size(), kIrqDataLen - 1};
  const uint64_t target = irq_calls(backend());
  std::atomic<uint64_t> calls{0};
  std::atomic<bool> stop{false};
  std::atomic<int> ready{0};
  bool gave_up = false;
  {
    SignalBlock block(SIGALRM);  // before the timer: the callers get the signal
    AlarmTimer timer(one_shot_handler, timer_period(alg(), backend(), kIrqDataLen));
    ASSERT_TRUE(timer.ok()) << "sigaction/setitimer: " << std::strerror(errno);
    g_one_shot.store(state.get(), std::memory_order_release);
    std::vector<std::thread> threads;
    for (int t = 0; t < kIrqCallers; ++t) {
      threads.emplace_back(irq_caller, state.get(), &callers[t], &calls, target, &stop, &ready,
                           splits[t]);
    }
    const Clock::time_point start = Clock::now();
    while (ready.load() < kIrqCallers ||
           calls.load() < target || state->runs.load(std::memory_order_acquire) < kHandlerRuns) {
      if (Clock::now() - start >= kGiveUp) {
        gave_up = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    stop.store(true);
    for (std::thread& t : threads) t.join();
    // A signal still pending reaches the handler, which is still installed.
    block.unblock();
  }
  g_one_shot.store(nullptr, std::memory_order_release);

  const uint32_t runs = state->runs.load();
  uint64_t interrupted = 0;
  for (int t = 0; t < kIrqCallers; ++t) {
    const IrqCaller& c = callers[t];
    interrupted += c.interrupted;
    EXPECT_GT(c.calls, 0u) << label() << ": caller " << t << " made no call";
    EXPECT_EQ(c.mismatches, 0u) << label() << ": caller " << t << " got " << c.mismatches
                                << " wrong digests of " << c.calls << ", the first at its call "
                                << c.first_bad_call << " (" << c.first_bad_form
                                << ", message length " << kIrqDataLen << ")";
  }
  EXPECT_EQ(state->mismatches.load(), 0u)
      << label() << ": wrong digest in the signal handler, " << state->mismatches.load() << " of "
      << runs << " runs (message length " << kIrqDataLen << ")";
  const std::string counts = std::to_string(calls.load()) + " calls by " +
                             std::to_string(kIrqCallers) + " callers, " + std::to_string(runs) +
                             " handler runs, " + std::to_string(interrupted) +
                             " calls the interrupt landed in";
  RecordProperty("interrupt_context", counts);
  if (gave_up)
    return skip_with_reason(label() + ": not done before the " + std::to_string(kGiveUp.count()) +
                            " s cap (a very slow or busy machine): " + counts + " of " +
                            std::to_string(target) + " calls and " +
                            std::to_string(kHandlerRuns) +
                            " handler runs wanted; every result so far was right");
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
