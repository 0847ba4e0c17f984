// The CPU model table (emulation/cpu_models.json): the compiled-in copy
// parses, and bad entries are refused with the file, the model and the field.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cpu_models.h"

namespace lockstep::models {
namespace {

constexpr std::string_view kEmulators =
    R"("emulators": {"qemu-x86_64": {"arch": "x86_64", "skip_tests": "", "why": ""}})";

std::string error_of(const std::string& models) {
  std::string error;
  const Table t = parse("{" + std::string(kEmulators) + ", \"models\": [" + models + "]}",
                        "models.json", error);
  EXPECT_TRUE(t.models.empty()) << "a bad table came back with models";
  return error;
}

// Test that the table lockstep runs from parses, that every model has a
// known emulator of its architecture, ids are unique, and each gives its
// source.
TEST(CpuModels, TableParses) {
  const Table& t = table();
  ASSERT_FALSE(t.models.empty());
  std::set<std::string> ids;
  for (const Model& m : t.models) {
    EXPECT_TRUE(ids.insert(m.id).second) << m.id << " twice";
    const Emulator* e = find_emulator(m.emulator);
    ASSERT_NE(e, nullptr) << m.id;
    EXPECT_EQ(e->arch, m.arch) << m.id;
    EXPECT_FALSE(m.features.empty()) << m.id;
    EXPECT_FALSE(m.source.empty()) << m.id << " does not say where its features come from";
    EXPECT_EQ(find(m.id), &m);
  }
  EXPECT_EQ(find("qemu-x86_64-Pentium"), nullptr);
}

// Test that each kind of bad entry is an error naming the file, the model
// and the field.
TEST(CpuModels, BadEntriesAreNamed) {
  std::string e = error_of(R"({"emulator": "qemu-x86_64", "cpu": "Haswell", "source": "s",
                               "features": ["sse2", "avx9"]})");
  EXPECT_NE(e.find("models.json"), std::string::npos) << e;
  EXPECT_NE(e.find("qemu-x86_64-Haswell"), std::string::npos) << e;
  EXPECT_NE(e.find("\"features\""), std::string::npos) << e;
  EXPECT_NE(e.find("avx9"), std::string::npos) << e;

  e = error_of(R"({"emulator": "qemu-x86_64", "source": "s", "features": []})");
  EXPECT_NE(e.find("models[0]"), std::string::npos) << e;
  EXPECT_NE(e.find("\"cpu\""), std::string::npos) << e;

  e = error_of(R"({"emulator": "bochs", "cpu": "p6", "source": "s", "features": []})");
  EXPECT_NE(e.find("'bochs'"), std::string::npos) << e;

  // avx2 without avx: no CPU is like that, so it is a typo.
  e = error_of(R"({"emulator": "qemu-x86_64", "cpu": "x", "source": "s", "features": ["avx2"]})");
  EXPECT_NE(e.find("prerequisite"), std::string::npos) << e;

  // arm64 names are not x86 features.
  e = error_of(R"({"emulator": "qemu-x86_64", "cpu": "x", "source": "s", "features": ["asimd"]})");
  EXPECT_NE(e.find("asimd"), std::string::npos) << e;

  std::string error;
  parse("[1, 2]", "models.json", error);
  EXPECT_NE(error.find("not a JSON object"), std::string::npos) << error;
}

}  // namespace
}  // namespace lockstep::models
