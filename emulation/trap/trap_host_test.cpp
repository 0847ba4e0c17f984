// The trap host over the registered emulators: the LOCKSTEP_EMULATE switch,
// the features each emulator declares at startup, the ctest filters CMake
// makes for them, and what happens to SIGILLs no emulator takes. ctest runs
// this binary without LOCKSTEP_EMULATE, with each emulator's name, and with
// all of them (trap_host.*).
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "catalog.h"
#include "cpu/cpu.h"
#include "trap/backends.h"
#include "trap/ctest_filters.h"
#include "trap/test_support.h"
#include "trap/trap.h"

namespace {

namespace cpu = lockstep::cpu;
namespace trap = lockstep::trap;
using trap::Emulator;

std::string names(const trap::Request& r) {
  std::string out;
  for (const Emulator* e : r.enabled) out += (out.empty() ? "" : ",") + std::string(e->name);
  return out;
}

TEST(TrapHost, ListsEachEmulatorOnce) {
  ASSERT_FALSE(trap::emulators().empty());
  for (const Emulator* e : trap::emulators()) {
    EXPECT_EQ(trap::find(e->name), e) << e->name;
    EXPECT_FALSE(e->provides.empty()) << e->name;
    EXPECT_NE(e->handle, nullptr) << e->name;
    EXPECT_EQ(trap::id(*e), std::string(e->name) + "-trap");
  }
  EXPECT_EQ(trap::find(""), nullptr);
  EXPECT_EQ(trap::find("sde"), nullptr);
}

TEST(TrapHost, ParsesTheList) {
  const std::string all = trap::known_names();  // "a, b": the list order
  std::string all_items = all;
  for (size_t at; (at = all_items.find(", ")) != std::string::npos;) all_items.replace(at, 2, ",");
  EXPECT_EQ(names(trap::parse("")), "");
  EXPECT_EQ(names(trap::parse(" , ,\t")), "");
  EXPECT_EQ(names(trap::parse(all_items)), all_items);
  for (const Emulator* e : trap::emulators()) {
    const std::string n(e->name);
    EXPECT_EQ(names(trap::parse(n)), n);
    EXPECT_EQ(names(trap::parse(" " + n + "\t, ")), n);
    EXPECT_EQ(names(trap::parse(n + ",," + n + ",")), n) << "each once";
    EXPECT_TRUE(trap::parse(n).error.empty());
  }
  // Whatever order the items come in, the list order holds.
  std::string reversed;
  for (const Emulator* e : trap::emulators()) reversed = std::string(e->name) + "," + reversed;
  EXPECT_EQ(names(trap::parse(reversed)), all_items);
}

// A name that is not in the list is an error naming the known ones, never
// silently ignored: a typo would otherwise run nothing under emulation.
TEST(TrapHost, UnknownNamesAreErrors) {
  const std::string first(trap::emulators()[0]->name);
  for (const std::string& bad : {std::string("frobnicator"), first + "2", "no" + first, std::string("sde"),
                                std::string("PHE"), first + " x"}) {
    const trap::Request r = trap::parse(first + "," + bad);
    EXPECT_TRUE(r.enabled.empty()) << bad;
    EXPECT_EQ(r.error, "unknown emulator '" + bad + "' (known: " + trap::known_names() + ")");
  }
}

// At startup: an unknown name ends the process, status 2, before main.
TEST(TrapHostDeathTest, UnknownNameStopsTheProgram) {
  // The child runs this binary anew, so the host's static initializer sees
  // the variable.
  const std::string style = GTEST_FLAG_GET(death_test_style);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const char* old = std::getenv("LOCKSTEP_EMULATE");
  const std::string saved = old ? old : "";
  setenv("LOCKSTEP_EMULATE", "frobnicator", 1);
  EXPECT_EXIT(std::exit(0), testing::ExitedWithCode(2),
              "lockstep: LOCKSTEP_EMULATE: unknown emulator 'frobnicator' \\(known: ");
  if (old) {
    setenv("LOCKSTEP_EMULATE", saved.c_str(), 1);
  } else {
    unsetenv("LOCKSTEP_EMULATE");
  }
  GTEST_FLAG_SET(death_test_style, style);
}

// Foreign SIGILLs with every emulator enabled: none may take them.
TEST(TrapHostDeathTest, ForeignSigillStillKills) {
  const auto body = [](void (*foreign)()) {
    for (const Emulator* e : trap::emulators()) {
      std::string error;
      if (!trap::install(*e, &error)) {
        std::fprintf(stderr, "%s: %s\n", std::string(e->name).c_str(), error.c_str());
        _exit(5);
      }
    }
    if (!trap::installed()) _exit(6);
    foreign();
  };
  const auto killed = testing::KilledBySignal(SIGILL);
  EXPECT_EXIT(body(trap::testing::ud2), killed, "");
  EXPECT_EXIT(body(trap::testing::raise_sigill), killed, "");
}

// A handler the host replaced gets the foreign SIGILLs, faulted or sent, in
// either calling convention; installing twice does not make the host its own
// previous handler.
TEST(TrapHostDeathTest, ForeignSigillReachesThePreviousHandler) {
  for (const bool siginfo : {true, false}) {
    const auto body = [siginfo](bool sent) {
      trap::testing::no_core();
      trap::testing::become_previous(siginfo);
      for (const Emulator* e : trap::emulators()) trap::install(*e);
      for (const Emulator* e : trap::emulators()) trap::install(*e);
      if (!trap::installed()) _exit(5);
      if (sent) raise(SIGILL);
      __asm__ __volatile__("ud2");
    };
    EXPECT_EXIT(body(false), testing::ExitedWithCode(3), "previous handler ran") << siginfo;
    EXPECT_EXIT(body(true), testing::ExitedWithCode(siginfo ? 4 : 3), "previous handler ran") << siginfo;
  }
}

// Per emulator, as LOCKSTEP_EMULATE says.
class TrapEmulator : public testing::TestWithParam<const Emulator*> {};

bool wanted(const Emulator& e) {
  const char* list = std::getenv("LOCKSTEP_EMULATE");
  if (list == nullptr) return false;
  for (const Emulator* x : trap::parse(list).enabled)
    if (x == &e) return true;
  return false;
}

TEST_P(TrapEmulator, StartupFollowsTheSwitch) {
  const Emulator& e = *GetParam();
  const cpu::State& st = cpu::state();
  const bool on = wanted(e);
  EXPECT_EQ(trap::installed_by_environment(e), on);
  EXPECT_EQ(trap::enabled(e), on);
  const bool named = ("," + st.in_process_emulator + ",").find("," + trap::id(e) + ",") != std::string::npos;
  EXPECT_EQ(named, on) << cpu::report();
  if (std::getenv("LOCKSTEP_EMULATE") == nullptr) {
    EXPECT_TRUE(st.in_process_emulated.empty()) << cpu::report();
    EXPECT_FALSE(trap::installed());
  }
  if (!on) return;
  EXPECT_TRUE(trap::installed());
  EXPECT_TRUE(st.in_process_emulated.has_all(e.provides - st.detection.features)) << cpu::report();
  if (st.mask.empty()) {
    EXPECT_TRUE(cpu::effective().has_all(e.provides)) << cpu::report();
    // Its backends may run now, unless they need more than it provides.
    for (const lockstep::Backend* b : trap::backends_for(e))
      if (st.detection.features.has_all(b->needs - e.provides)) {
        EXPECT_TRUE(b->usable(cpu::effective())) << b->name << "\n" << cpu::report();
      }
  }
}

// ctest runs the conformance cases under each emulator with a filter CMake
// made by convention (trap/CMakeLists.txt); it must be the one the catalog
// gives: the cases of the backends that need what the emulator provides.
TEST_P(TrapEmulator, CtestFilterSelectsItsBackends) {
  const Emulator& e = *GetParam();
  EXPECT_FALSE(trap::backends_for(e).empty()) << e.name << ": no compiled backend needs what it provides";
  const char* filter = nullptr;
  for (const CtestFilter& f : kCtestFilters)
    if (f.name == e.name) filter = f.filter;
  ASSERT_NE(filter, nullptr) << e.name;
  EXPECT_EQ(filter, trap::gtest_filter_for(e))
      << e.name << ": give lockstep_add_trap_emulator() this TEST_FILTER";
}

INSTANTIATE_TEST_SUITE_P(Registered, TrapEmulator, testing::ValuesIn(trap::emulators().begin(), trap::emulators().end()),
                         [](const testing::TestParamInfo<const Emulator*>& p) { return std::string(p.param->name); });

}  // namespace
