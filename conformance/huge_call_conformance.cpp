// One call over 2^31 bytes: where an `int` length or block count wraps. The
// message is a 1 MiB memfd mapped again and again into one 2 GiB range, so
// it costs 1 MiB of memory, not 2 GiB. SHA-2 rows compare the one-shot
// digest with the reference's over the same bytes; the ChaCha row writes
// into a second repeated mapping, where each offset ends up holding what
// the last megabyte of the call wrote there, so the reference needs only
// that last stretch of keystream, and the counter after the call is
// checked too. Under an emulated CPU model (QEMU, SDE) a call this size
// takes minutes: there the rows skip with that reason. Under an in-process
// trap emulator that asks for it (trap.h: huge_call_bytes), the call is
// that long instead, and the cell says so.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include <fmt/format.h>

#include "abi/abi_check.h"
#include "backend_fixture.h"
#include "expected_cache.h"
#include "reference.h"
#if defined(__x86_64__)
#include "trap/trap.h"
#endif

namespace lockstep::conformance {
namespace {

constexpr size_t kChunk = size_t{1} << 20;
// Past 2^31 by a block and a bit: whole blocks and a tail.
constexpr size_t kHugeLength = (size_t{1} << 31) + 131;

// RepeatedMapping is `len` bytes (rounded up to whole chunks) in which one
// chunk of memory repeats: writing one offset writes it in every chunk.
class RepeatedMapping {
 public:
  RepeatedMapping(size_t len, uint8_t seed) {
    const size_t chunks = (len + kChunk - 1) / kChunk;
    fd_ = memfd_create("lockstep-huge-call", MFD_CLOEXEC);
    if (fd_ < 0 || ftruncate(fd_, kChunk) != 0) {
      error_ = "memfd_create/ftruncate failed";
      return;
    }
    size_ = chunks * kChunk;
    void* base = mmap(nullptr, size_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
      error_ = fmt::format("cannot reserve {} bytes of address space", size_);
      size_ = 0;
      return;
    }
    base_ = static_cast<uint8_t*>(base);
    for (size_t i = 0; i < chunks; ++i) {
      if (mmap(base_ + i * kChunk, kChunk, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd_, 0) == MAP_FAILED) {
        error_ = fmt::format("mapping chunk {} of {} failed", i, chunks);
        return;
      }
    }
    for (size_t i = 0; i < kChunk; ++i) base_[i] = static_cast<uint8_t>(seed + i * 31 + (i >> 11));
  }
  ~RepeatedMapping() {
    if (base_) munmap(base_, size_);
    if (fd_ >= 0) close(fd_);
  }
  RepeatedMapping(const RepeatedMapping&) = delete;
  RepeatedMapping& operator=(const RepeatedMapping&) = delete;

  uint8_t* data() const { return base_; }
  const std::string& error() const { return error_; }

 private:
  int fd_ = -1;
  uint8_t* base_ = nullptr;
  size_t size_ = 0;
  std::string error_;
};

// The length of the one call here, and what the cell says of a shorter one.
struct CallLength {
  size_t bytes = kHugeLength;
  std::string note;
};
CallLength call_length() {
  CallLength c;
#if defined(__x86_64__)
  for (const trap::Emulator* e : trap::emulators())
    if (trap::installed_by_environment(*e) && e->huge_call_bytes != 0 && e->huge_call_bytes < c.bytes) {
      c.bytes = e->huge_call_bytes;
      c.note = fmt::format("under the {} trap emulator, one call of {} bytes, not {}: every emulated instruction "
                           "is a call into the emulator; the {}-byte call runs where the CPU has the extension",
                           e->title, c.bytes, kHugeLength, kHugeLength);
    }
#endif
  return c;
}

// Why this process should not make the call, or "".
std::string emulated() {
  for (const char* var : {"LOCKSTEP_CPU_MODEL", "QEMU_CPU"})
    if (const char* v = std::getenv(var); v && *v)
      return fmt::format("under an emulated CPU ({}={}) a {}-byte call takes minutes", var, v, kHugeLength);
  return "";
}

// Why the call means nothing new here, or "": with SIMD unusable to the
// kernel glue (all of the time, or every other call), the glue's fallback
// hashes with lockstep's generic code, over the same tree code the native
// environment's call runs with the glue's SIMD path.
std::string simd_environment() {
  if (const char* v = std::getenv("LOCKSTEP_KERNEL_SIMD"); v && *v && std::string_view(v) != "usable")
    return fmt::format("LOCKSTEP_KERNEL_SIMD={}: the {}-byte call is the native environment's, where the glue "
                       "takes its SIMD path; here it would time lockstep's generic fallback", v, kHugeLength);
  return "";
}

// Every hash row hashes the same bytes (the mapping of this seed), so the
// reference answers once per algorithm and length, in this process and
// for the run's others (expected_cache.h).
constexpr uint8_t kHugeSeed = 7;
Bytes huge_digest(const catalog::HashAlgorithm& alg, std::span<const uint8_t> all) {
  static std::mutex mu;
  static std::map<std::string, Bytes> wanted;
  std::lock_guard lock(mu);
  const std::string key = std::string(alg.name) + "/" + std::to_string(all.size());
  auto it = wanted.find(key);
  if (it == wanted.end()) {
    const std::string file = fmt::format("{}-{}-seed{}", alg.name, all.size(), kHugeSeed);
    it = wanted.emplace(key, cached_expected(file, alg.digest_size, [&] { return expected_digest(alg, all); })).first;
  }
  return it->second;
}

// In a trap environment a whole-message driver (a glue's shash) runs the
// native code the native environment's call runs: the emulators trap
// instructions no such driver of these trees executes.
std::string trap_environment() {
  if (const char* v = std::getenv("LOCKSTEP_EMULATE"); v && *v)
    return fmt::format("LOCKSTEP_EMULATE={}: the driver's {}-byte call is the native environment's", v, kHugeLength);
  return "";
}

// Why no length of the call reaches the code under test, or "": its module
// hands it at most max_call_bytes a call (module.h), splitting longer ones.
std::string split_by_module(const Backend& b) {
  if (b.max_call_bytes == 0 || b.max_call_bytes >= kHugeLength) return "";
  return fmt::format("its module hands the code under test at most {} bytes a call (max_call_bytes), as the "
                     "glue it stands for does: a {}-byte call reaches that code only in such calls, which "
                     "conformance makes",
                     b.max_call_bytes, kHugeLength);
}

class HugeCall : public BackendTest {};
INSTANTIATE_TEST_SUITE_P(All, HugeCall, testing::ValuesIn(hash_params()), HashParamName());

TEST_P(HugeCall, OneCallPast2To31Bytes) {
  // One row of each backend makes the call: its family's first algorithm
  // (a backend for only some of them: the first it serves).
  if (alg().name != alg().family->name && backend()->serves(alg().family->name))
    return skip_not_applicable("the same blocks() as the " + std::string(alg().family->name) + " row, which makes the call");
  if (backend()->hash_driver != nullptr)
    return skip_not_applicable("its blocks() are its driver's update, which DriverHugeCall calls with the same bytes");
  if (const std::string why = split_by_module(*backend()); !why.empty()) return skip_not_applicable(why);
  if (const std::string why = emulated(); !why.empty()) return skip_with_reason(why);
  if (const std::string why = simd_environment(); !why.empty()) return skip_not_applicable(why);
  const CallLength length = call_length();
  const RepeatedMapping msg(length.bytes, kHugeSeed);
  ASSERT_TRUE(msg.error().empty()) << msg.error();
  const std::span<const uint8_t> all(msg.data(), length.bytes);
  EXPECT_EQ(hex(digest(all)), hex(huge_digest(alg(), all))) << label() << ": one digest() of " << length.bytes << " bytes";
  if (!length.note.empty()) note(length.note);
}

// The same call through a whole-message driver (a glue's shash): one
// digest() of it, whose length the glue's update and finup carry as an
// unsigned int, its block count as an int, and its byte count as a u64.
class DriverHugeCall : public BackendTest {};
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DriverHugeCall);
INSTANTIATE_TEST_SUITE_P(All, DriverHugeCall, testing::ValuesIn(driver_params()), HashParamName());

TEST_P(DriverHugeCall, OneDigestPast2To31Bytes) {
  if (!backend()->same_code_as.empty())
    return skip_not_applicable("its driver runs " + backend()->same_code_as + "'s code for every length but its "
                               "initial state (the module's same_code_as): that row makes the call");
  if (const std::string why = emulated(); !why.empty()) return skip_with_reason(why);
  if (const std::string why = simd_environment(); !why.empty()) return skip_not_applicable(why);
  if (const std::string why = trap_environment(); !why.empty()) return skip_not_applicable(why);
  const lockstep_hash_driver& d = *backend()->hash_driver;
  const CallLength length = call_length();
  const RepeatedMapping msg(length.bytes, kHugeSeed);
  ASSERT_TRUE(msg.error().empty()) << msg.error();
  RawCtx desc(d.desc_size, 16);
  Bytes got(d.digest_size);
  backend()->count_call();
  const int rc = abi::call_preserving(d.digest, &d, desc.get(), static_cast<const uint8_t*>(msg.data()),
                                      static_cast<unsigned>(length.bytes), got.data());
  EXPECT_EQ(rc, 0) << label() << ": digest() returned " << rc;
  EXPECT_EQ(hex(got), hex(huge_digest(alg(), {msg.data(), length.bytes})))
      << label() << ": the driver's digest() of " << length.bytes << " bytes in one call";
  if (!length.note.empty()) note(length.note);
}

class HugeCipherCall : public CipherTest {};
INSTANTIATE_TEST_SUITE_P(All, HugeCipherCall, testing::ValuesIn(cipher_params()), CipherParamName());

TEST_P(HugeCipherCall, OneCallPast2To31Bytes) {
  if (alg().name != "chacha20") return skip_not_applicable("the same crypt() as the chacha20 row, which makes the call");
  if (const std::string why = split_by_module(*backend()); !why.empty()) return skip_not_applicable(why);
  if (const std::string why = emulated(); !why.empty()) return skip_with_reason(why);
  if (const std::string why = simd_environment(); !why.empty()) return skip_not_applicable(why);
  const RepeatedMapping src(kHugeLength, 3), dst(kHugeLength, 0);
  ASSERT_TRUE(src.error().empty() && dst.error().empty()) << src.error() << dst.error();
  const Bytes key = rng().bytes(32), nonce = rng().bytes(alg().nonce_size);
  constexpr uint32_t kCounter = 1;
  const std::array<uint32_t, 16> after = crypt(key, kCounter, nonce, dst.data(), src.data(), kHugeLength);

  const uint64_t blocks = (kHugeLength + 63) / 64;
  EXPECT_EQ(after[12], static_cast<uint32_t>(kCounter + blocks)) << label() << ": the block counter after the call";
  // Offset o of a chunk holds what position p < len, p = o mod 1 MiB, the
  // largest, was given: the call's last megabyte, from the block it starts in.
  const size_t first = (kHugeLength - kChunk) / 64 * 64;
  Bytes from_first(kHugeLength - first);
  for (size_t i = 0; i < from_first.size(); ++i) from_first[i] = src.data()[(first + i) % kChunk];
  const Bytes want = expected(key, kCounter + static_cast<uint32_t>(first / 64), nonce, from_first);
  size_t wrong = 0, first_wrong = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const size_t p = first + i;
    if (p + kChunk < kHugeLength) continue;  // a later position wrote this offset
    if (dst.data()[p % kChunk] != want[i] && wrong++ == 0) first_wrong = p;
  }
  EXPECT_EQ(wrong, 0u) << label() << ": after one crypt() of " << kHugeLength << " bytes, " << wrong
                       << " bytes of its last megabyte differ from the reference, the first at position "
                       << first_wrong;
}

}  // namespace
}  // namespace lockstep::conformance
