// The bench renderer on a small hand-written run: what the tables say, the
// ratio arithmetic, the targets' verdicts and the chart's shape.
#include "bench_report/report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace lockstep::cli::bench_report {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

json run(const std::string& name, double mb_per_s, const std::string& label = "") {
  json b = {{"name", name}, {"run_name", name}, {"run_type", "iteration"},
            {"iterations", 1000}, {"bytes_per_second", mb_per_s * 1e6}};
  if (!label.empty()) b["label"] = label;
  return b;
}

json skipped(const std::string& name, const std::string& why) {
  return {{"name", name}, {"run_name", name}, {"run_type", "iteration"},
          {"error_occurred", true}, {"error_message", why}};
}

// Two lengths of SHA-256 with a backend that could not run, one length of
// ChaCha20, finup_2x on a 2-way and a sequential backend.
json sample() {
  json benchmarks = json::array({
      run("hash/sha256/sha256/x86-shani/64", 600),
      run("hash/sha256/sha256/x86-shani/4096", 1800),
      skipped("hash/sha256/sha256/x86-phe/64", "needs phe, which this CPU lacks"),
      skipped("hash/sha256/sha256/x86-phe/4096", "needs phe, which this CPU lacks"),
      run("hash/sha256/sha256/generic/64", 150),
      run("hash/sha256/sha256/generic/4096", 200),
      run("crypt/chacha20/chacha/x86-avx512f/1024", 4000),
      run("crypt/chacha20/chacha/x86-avx2/1024", 2500),
      run("anchor/sha256/openssl/64", 400),
      run("anchor/sha256/openssl/4096", 2000),
      run("anchor/sha256/cryptopp/64", 500, "SHANI"),
      run("anchor/sha256/cryptopp/4096", 1900, "SHANI"),
      run("anchor/chacha20/openssl/1024", 3000),
      run("finup2x/sha256/x86-shani/salt0", 1800, "2-way"),
      run("pair/sha256/x86-shani/salt0", 1000, "2-way"),
      run("finup2x/sha256/x86-shani/salt32", 1700, "2-way"),
      run("pair/sha256/x86-shani/salt32", 1000, "2-way"),
      run("finup2x/sha256/generic/salt0", 205, "sequential"),
      run("pair/sha256/generic/salt0", 200, "sequential"),
  });
  return {{"context",
           {{"lockstep_cpu", "Test CPU"}, {"num_cpus", 2}, {"mhz_per_cpu", 2100},
            {"openssl_version", "OpenSSL 3.0.19"}, {"cryptopp_version", "8.7.0"},
            {"lockstep_finup2x_length", "4096"}}},
          {"benchmarks", benchmarks}};
}

TEST(BenchReport, ParsesSeriesInOrderWithAnchorsLast) {
  const Results r = parse(sample());
  ASSERT_EQ(r.algorithms.size(), 2u);
  const Algorithm& sha = r.algorithms[0];
  EXPECT_EQ(sha.name, "sha256");
  EXPECT_EQ(sha.display, "SHA-256");
  EXPECT_EQ(sha.lengths, (std::vector<size_t>{64, 4096}));
  std::vector<std::string> ids;
  for (const Series& s : sha.series) ids.push_back(s.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"sha256/x86-shani", "sha256/x86-phe", "sha256/generic",
                                           "openssl", "cryptopp"}));
  EXPECT_EQ(sha.find("sha256/x86-phe")->skipped, "needs phe, which this CPU lacks");
  EXPECT_DOUBLE_EQ(sha.find("sha256/x86-shani")->mbps.at(4096), 1800);
  EXPECT_EQ(sha.find("cryptopp")->note, "SHANI");
  EXPECT_EQ(r.algorithms[1].display, "ChaCha20");
  EXPECT_EQ(r.finup2x_length, 4096u);
  ASSERT_EQ(r.finup2x.size(), 3u);
  EXPECT_TRUE(r.finup2x[0].two_way);
  EXPECT_FALSE(r.finup2x[2].two_way);
}

TEST(BenchReport, RepetitionsCountByMedianAndAggregatesAreIgnored) {
  json j = {{"benchmarks", json::array({run("hash/sha256/sha256/generic/64", 100),
                                        run("hash/sha256/sha256/generic/64", 300),
                                        run("hash/sha256/sha256/generic/64", 120)})}};
  json mean = run("hash/sha256/sha256/generic/64", 9999);
  mean["run_type"] = "aggregate";
  mean["name"] = "hash/sha256/sha256/generic/64_mean";
  j["benchmarks"].push_back(mean);
  j["benchmarks"].push_back(run("something/else", 1));  // not lockstep_bench's: ignored
  const Results r = parse(j);
  ASSERT_EQ(r.algorithms.size(), 1u);
  EXPECT_DOUBLE_EQ(r.algorithms[0].find("sha256/generic")->mbps.at(64), 120);
}

TEST(BenchReport, RejectsWhatIsNotBenchmarkJson) {
  EXPECT_THROW(parse(json::object()), std::runtime_error);
  EXPECT_THROW(parse(json::array()), std::runtime_error);
}

TEST(BenchReport, AlgorithmTableHasLengthRowsAndRatioColumns) {
  const Results r = parse(sample());
  const std::string t = algorithm_table(r.algorithms[0]);
  EXPECT_THAT(t, HasSubstr("### SHA-256: MB/s by message length\n"));
  // x86-phe did not run: no column, a note instead.
  EXPECT_THAT(t, HasSubstr("| bytes | x86-shani | generic | OpenSSL | Crypto++ | x86-shani / generic | "
                   "x86-shani / OpenSSL |\n"
                   "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"));
  // 600 / 150 = 4, 600 / 400 = 1.5; 1800 / 200 = 9, 1800 / 2000 = 0.9.
  EXPECT_THAT(t, HasSubstr("| 64 | 600 | 150 | 400 | 500 | 4.00x | 1.50x |\n"));
  EXPECT_THAT(t, HasSubstr("| 4096 | 1800 | 200 | 2000 | 1900 | 9.00x | 0.90x |\n"));
  EXPECT_THAT(t, HasSubstr("Not run here: x86-phe (needs phe, which this CPU lacks).\n"));
  EXPECT_THAT(t, HasSubstr("Crypto++ ran its SHANI code."));
}

TEST(BenchReport, ChachaTableWithoutGenericHasOnlyOpensslRatios) {
  const Results r = parse(sample());
  const std::string t = algorithm_table(r.algorithms[1]);
  EXPECT_THAT(t, HasSubstr("| bytes | x86-avx512f | x86-avx2 | OpenSSL | x86-avx512f / OpenSSL | x86-avx2 / OpenSSL |\n"));
  EXPECT_THAT(t, HasSubstr("| 1024 | 4000 | 2500 | 3000 | 1.33x | 0.83x |\n"));
}

TEST(BenchReport, Finup2xTableComparesWithTwoSingleHashes) {
  const std::string t = finup2x_table(parse(sample()));
  EXPECT_THAT(t, HasSubstr("### SHA-256 finup_2x: two 4096-byte messages after a salt, MB/s\n"));
  EXPECT_THAT(t, HasSubstr("| backend | salt bytes | two single hashes | finup_2x | finup_2x / single |\n"));
  EXPECT_THAT(t, HasSubstr("| x86-shani (2-way) | 0 | 1000 | 1800 | 1.80x |\n"));
  EXPECT_THAT(t, HasSubstr("| x86-shani (2-way) | 32 | 1000 | 1700 | 1.70x |\n"));
  EXPECT_THAT(t, HasSubstr("| generic (sequential) | 0 | 200 | 205 | 1.02x |\n"));
}

TEST(BenchReport, TargetsAreMeasuredOrSayWhyNot) {
  const std::vector<Target> t = targets(parse(sample()));
  auto find = [&](const std::string& what) -> const Target& {
    for (const Target& x : t)
      if (x.what == what) return x;
    throw std::runtime_error("no target " + what);
  };
  // At 64 bytes Crypto++ (500) is the faster peer, at 4096 OpenSSL (2000).
  const Target& short_msgs = find("sha256/x86-shani / Crypto++ @ 64 B");
  EXPECT_EQ(short_msgs.group, 1);
  EXPECT_DOUBLE_EQ(*short_msgs.ratio, 1.2);
  EXPECT_TRUE(short_msgs.met());
  const Target& long_msgs = find("sha256/x86-shani / OpenSSL @ 4096 B");
  EXPECT_FALSE(long_msgs.met());
  EXPECT_NEAR(long_msgs.shortfall_percent(), 10.0, 1e-9);
  EXPECT_FALSE(find("sha256/x86-shani / OpenSSL @ 16384 B").ratio);
  const Target& finup = find("finup_2x sha256/x86-shani / one stream @ 4096 B");
  EXPECT_EQ(finup.group, 3);
  EXPECT_DOUBLE_EQ(*finup.ratio, 1.8);
  const Target& sha512 = find("sha512/x86-avx2 / OpenSSL @ 16384 B");
  EXPECT_EQ(sha512.group, 2);
  EXPECT_FALSE(sha512.ratio);
  EXPECT_EQ(sha512.missing, "no sha512/x86-avx2 result at 16384 B");
  const Target& chacha = find("chacha/x86-avx512f / OpenSSL @ 1024 B");
  EXPECT_EQ(chacha.group, 4);
  EXPECT_NEAR(*chacha.ratio, 4000.0 / 3000, 1e-12);
  EXPECT_TRUE(chacha.met());

  const std::string table = targets_table(t);
  EXPECT_THAT(table, HasSubstr("| 1 | sha256/x86-shani / Crypto++ @ 64 B | 1.200x | >= 1.00x | met |\n"));
  EXPECT_THAT(table, HasSubstr("| 1 | sha256/x86-shani / OpenSSL @ 4096 B | 0.900x | >= 1.00x | missed by 10.0% |\n"));
  EXPECT_THAT(table, HasSubstr("| 2 | sha512/x86-avx2 / OpenSSL @ 16384 B | - | >= 1.00x | not measured: "
                       "no sha512/x86-avx2 result at 16384 B |\n"));
  EXPECT_THAT(table, HasSubstr("| 3 | finup_2x sha256/x86-shani / one stream @ 4096 B | 1.800x | >= 1.64x | not judged "
                       "here: set for Zen 5; the run did not record which CPU it was |\n"));
}

// A ratio a hair under its goal is a miss, and reads as one: never "1.000x"
// beside "missed by 0.0%".
TEST(BenchReport, ANearMissNeverReadsAsTheGoal) {
  json j = sample();
  for (json b : {run("hash/sha256/sha256/x86-shani/16384", 999.6), run("anchor/sha256/openssl/16384", 1000)})
    j["benchmarks"].push_back(b);
  const std::string table = targets_table(targets(parse(j)));
  EXPECT_THAT(table, HasSubstr("| 1 | sha256/x86-shani / OpenSSL @ 16384 B | 0.9996x | >= 1.00x | "
                       "missed by less than 0.1% |\n"));
}

// Test the targets of short ChaCha calls (each SIMD backend against
// generic) and of the AVX-512VL SHA-512 no build has yet.
TEST(BenchReport, ShortChachaCallsAgainstGenericAndTheMissingAvx512Sha512) {
  json j = sample();
  for (json b : {run("crypt/chacha20/chacha/x86-avx2/1", 5), run("crypt/chacha20/chacha/generic/1", 4),
                 run("crypt/chacha20/chacha/x86-avx2/16", 60), run("crypt/chacha20/chacha/generic/16", 80)})
    j["benchmarks"].push_back(b);
  const std::vector<Target> t = targets(parse(j));
  auto find = [&](const std::string& what) -> const Target* {
    for (const Target& x : t)
      if (x.what == what) return &x;
    return nullptr;
  };
  const Target* one = find("chacha/x86-avx2 / chacha/generic @ 1 B");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->group, 1);
  EXPECT_DOUBLE_EQ(*one->ratio, 1.25);
  EXPECT_TRUE(one->met());
  const Target* sixteen = find("chacha/x86-avx2 / chacha/generic @ 16 B");
  ASSERT_NE(sixteen, nullptr);
  EXPECT_DOUBLE_EQ(*sixteen->ratio, 0.75);
  EXPECT_FALSE(sixteen->met());
  const Target* sixty_four = find("chacha/x86-avx512f / chacha/generic @ 64 B");
  ASSERT_NE(sixty_four, nullptr);
  EXPECT_EQ(sixty_four->missing, "no chacha/x86-avx512f result at 64 B");
  const Target* avx512 = find("sha512/x86-avx512vl / OpenSSL @ 16384 B");
  ASSERT_NE(avx512, nullptr);
  EXPECT_EQ(avx512->group, 2);
  EXPECT_FALSE(avx512->ratio);
  EXPECT_EQ(avx512->missing, "no sha512/x86-avx512vl result at 16384 B");
  EXPECT_NE(find("sha512/x86-avx2 / OpenSSL @ 1024 B"), nullptr);
}

// A tree's or a library's ChaCha is a peer to stand beside, not one of
// lockstep's backends the short-call goal is set for.
TEST(BenchReport, ShortChachaGoalLeavesModulesOut) {
  json j = sample();
  for (json b : {run("crypt/chacha20/chacha/x86-avx2/1", 5),
                 run("crypt/chacha20/chacha/linux-arch:x86-avx2-8block/1", 2),
                 run("crypt/chacha20/chacha/generic/1", 4)})
    j["benchmarks"].push_back(b);
  j["context"]["lockstep_backend/chacha/x86-avx2"] = "default;avx2";
  j["context"]["lockstep_backend/chacha/linux-arch:x86-avx2-8block"] = "module;avx2";
  j["context"]["lockstep_backend/chacha/generic"] = "own;";
  const std::vector<Target> t = targets(parse(j));
  std::vector<std::string> six;
  for (const Target& x : t)
    if (x.group == 1 && x.ratio && x.what.starts_with("chacha/")) six.push_back(x.what);
  EXPECT_EQ(six, std::vector<std::string>{"chacha/x86-avx2 / chacha/generic @ 1 B"});
}

// Goals set for some CPUs count only on those: elsewhere the ratio is
// shown and the verdict says "not judged here", never met or missed.
TEST(BenchReport, TargetsForOtherCpusAreNotJudgedHere) {
  json j = sample();
  for (json b : {run("hash/sha512/sha512/x86-avx512vl/16384", 500), run("anchor/sha512/openssl/16384", 400)})
    j["benchmarks"].push_back(b);
  auto find = [](const std::vector<Target>& t, const std::string& what, double goal) -> const Target& {
    for (const Target& x : t)
      if (x.what == what && x.goal == goal) return x;
    throw std::runtime_error("no target " + what);
  };
  const std::string avx512 = "sha512/x86-avx512vl / OpenSSL @ 16384 B";
  j["context"]["lockstep_cpu_generation"] = "Zen 1";
  const std::vector<Target> zen1 = targets(parse(j));
  const Target& ahead = find(zen1, avx512, 1.2);
  EXPECT_DOUBLE_EQ(*ahead.ratio, 1.25);
  EXPECT_FALSE(ahead.judged());
  EXPECT_FALSE(ahead.met());
  EXPECT_EQ(ahead.not_judged, "set for Zen 4, Zen 5; this CPU is Zen 1");
  // Goals for any CPU are judged everywhere.
  EXPECT_TRUE(find(zen1, avx512, 1.0).met());
  const std::string table = targets_table(zen1);
  EXPECT_THAT(table, HasSubstr("| 2 | sha512/x86-avx512vl / OpenSSL @ 16384 B | 1.250x | >= 1.20x | not judged here: "
                       "set for Zen 4, Zen 5; this CPU is Zen 1 |\n"));
  // seed 001's finup_2x figure is a Zen 5 goal, 1.5x an Intel one.
  EXPECT_THAT(table, HasSubstr("| 3 | finup_2x sha256/x86-shani / one stream @ 4096 B | 1.800x | >= 1.64x | not judged "
                       "here: set for Zen 5; this CPU is Zen 1 |\n"));

  j["context"]["lockstep_cpu_generation"] = "Zen 5";
  const std::vector<Target> zen5 = targets(parse(j));
  EXPECT_TRUE(find(zen5, avx512, 1.2).met());
  const std::string t5 = targets_table(zen5);
  EXPECT_THAT(t5, HasSubstr("| 3 | finup_2x sha256/x86-shani / one stream @ 4096 B | 1.800x | >= 1.64x | met |\n"));
  EXPECT_THAT(t5, HasSubstr("| 3 | finup_2x sha256/x86-shani / one stream @ 4096 B | 1.800x | >= 1.50x | not judged "
                    "here: set for Intel; this CPU is Zen 5 |\n"));
}

// Test cycles per byte: MHz over MB/s, only where the run read a clock.
TEST(BenchReport, CyclesPerByteFromTheClock) {
  const Results r = parse(sample());
  EXPECT_DOUBLE_EQ(r.mhz, 2100);
  const std::string table = cycles_table(*r.find("sha256"), r.mhz);
  EXPECT_THAT(table, HasSubstr("#### SHA-256: cycles per byte at 2100 MHz"));
  // 2100 / 600 = 3.50, 2100 / 150 = 14.00; OpenSSL 2100 / 400 = 5.25.
  EXPECT_THAT(table, HasSubstr("| 64 | 3.50 | 14.00 | 5.25 | 4.20 |\n"));
  EXPECT_EQ(cycles_table(*r.find("sha256"), 0), "");
  EXPECT_THAT(markdown(r), HasSubstr("cycles per byte at 2100 MHz"));
}

TEST(BenchReport, TargetNamesTheSkipReason) {
  json j = {{"benchmarks", json::array({skipped("hash/sha256/sha256/x86-shani/64", "needs sha_ni, which this CPU lacks"),
                                        run("anchor/sha256/openssl/64", 400)})}};
  const std::vector<Target> t = targets(parse(j));
  EXPECT_EQ(t[0].missing, "sha256/x86-shani: needs sha_ni, which this CPU lacks");
}

TEST(BenchReport, MarkdownHasEveryTableAndTheContext) {
  const std::string md = markdown(parse(sample()));
  EXPECT_THAT(md, HasSubstr("- CPU: Test CPU, 2 CPUs at 2100 MHz\n"));
  EXPECT_THAT(md, HasSubstr("### SHA-256: MB/s"));
  EXPECT_THAT(md, HasSubstr("### ChaCha20: MB/s"));
  EXPECT_THAT(md, HasSubstr("### SHA-256 finup_2x"));
  EXPECT_THAT(md, HasSubstr("### Speed targets"));
}

// The value of attribute `name` in the tag `tag` ("" if absent).
std::string attribute(const std::string& tag, const std::string& name) {
  const size_t at = tag.find(" " + name + "=\"");
  if (at == std::string::npos) return {};
  const size_t start = at + name.size() + 3;
  return tag.substr(start, tag.find('"', start) - start);
}

// Every <polyline> tag of `svg`, whole. (No std::regex: GCC 12 warns inside
// it in sanitizer builds, and -Werror makes that fatal.)
std::vector<std::string> polyline_tags(const std::string& svg) {
  std::vector<std::string> out;
  for (size_t at = 0; (at = svg.find("<polyline", at)) != std::string::npos; ++at)
    out.push_back(svg.substr(at, svg.find('>', at) - at + 1));
  return out;
}

// The series and the x of each point of every polyline.
std::vector<std::pair<std::string, std::vector<double>>> polylines(const std::string& svg) {
  std::vector<std::pair<std::string, std::vector<double>>> out;
  for (const std::string& tag : polyline_tags(svg)) {
    std::vector<double> xs;
    std::istringstream points(attribute(tag, "points"));
    for (std::string point; points >> point;) xs.push_back(std::stod(point.substr(0, point.find(','))));
    out.emplace_back(attribute(tag, "data-series"), xs);
  }
  return out;
}

// A series that made a module faster, one it added, one whose patched
// backend could not run here: each gets its table or its reason.
TEST(BenchReport, BeforeAfterTablePairsEachPatchedBackendWithItsOrigin) {
  const json j = {{"benchmarks", json::array({
                       run("hash/sha256/sha256/linux:sha256/64", 200),
                       run("hash/sha256/sha256/linux:sha256.series/64", 300),
                       run("hash/sha256/sha256/linux:sha256/4096", 1000),
                       run("hash/sha256/sha256/linux:sha256.series/4096", 900),
                       run("hash/sha256/sha256/linux:new.series/64", 50),
                       run("hash/sha256/sha256/linux:new.series/4096", 70),
                       run("crypt/chacha20/chacha/linux:chacha/64", 100),
                       skipped("crypt/chacha20/chacha/linux:chacha.series/64", "needs phe, which this CPU lacks"),
                       run("hash/sha256/sha256/generic/64", 150),
                   })}};
  const std::string t = before_after_table(parse(j), ".series");
  EXPECT_THAT(t, HasSubstr("### SHA-256: sha256/linux:sha256 before and after the series, MB/s"));
  EXPECT_THAT(t, HasSubstr("| 64 | 200 | 300 | 1.50x |"));
  EXPECT_THAT(t, HasSubstr("| 4096 | 1000 | 900 | 0.90x |"));
  EXPECT_THAT(t, HasSubstr("| 64 | - | 50.0 | new |"));
  EXPECT_THAT(t, HasSubstr("Not run here: chacha/linux:chacha.series (needs phe, which this CPU lacks)"));
  // generic is no patched backend: no table of its own.
  EXPECT_THAT(t, Not(HasSubstr("generic before")));
  EXPECT_EQ(before_after_table(parse(sample()), ".series"), "");
}

// A module backend's row is measured by direct calls; the table puts the
// abi guard's cost beside it, and a backend that could not run says why.
TEST(BenchReport, ModuleCallTableShowsTheGuardsCost) {
  const json j = {{"benchmarks", json::array({
                       run("modcall/sha256/sha256/openssl:SHA256_Transform/64/guarded", 250),
                       run("modcall/sha256/sha256/openssl:SHA256_Transform/64/direct", 400),
                       skipped("modcall/chacha20/chacha/m:x/64/guarded", "needs phe, which this CPU lacks"),
                       skipped("modcall/chacha20/chacha/m:x/64/direct", "needs phe, which this CPU lacks"),
                   })}};
  const Results r = parse(j);
  ASSERT_EQ(r.module_calls.size(), 2u);
  EXPECT_EQ(r.module_calls[0].backend, "sha256/openssl:SHA256_Transform");
  ASSERT_TRUE(r.module_calls[0].overhead_percent());
  EXPECT_DOUBLE_EQ(*r.module_calls[0].overhead_percent(), 60.0);
  const std::string t = module_call_table(r);
  EXPECT_THAT(t, HasSubstr("| sha256/openssl:SHA256_Transform | 64 | 400 | 250 | +60% |"));
  EXPECT_THAT(t, HasSubstr("Not run here: chacha/m:x (needs phe, which this CPU lacks)"));
  EXPECT_THAT(markdown(r), HasSubstr("through the abi guard"));
  EXPECT_EQ(module_call_table(parse(sample())), "");
}

// A tree's SHA-256 glue under the lazy kernel_fpu model: two sections per
// call at both lengths, beside one of lockstep's own backends (no
// sections), and the kfpu/ timings, one of them in microseconds.
json kernel_fpu_sample() {
  auto sections = [](json b, double per_call) {
    b["kernel_fpu_sections"] = per_call;
    return b;
  };
  auto timed = [](const std::string& name, double cpu_time, const std::string& unit) {
    return json{{"name", name}, {"run_name", name}, {"run_type", "iteration"}, {"iterations", 1000},
                {"cpu_time", cpu_time}, {"real_time", cpu_time}, {"time_unit", unit}};
  };
  return {{"context",
           {{"lockstep_kernel_fpu_model", "lazy"},
            {"lockstep_kernel_fpu_save", "XSAVEOPT"},
            {"lockstep_kernel_fpu_restore", "XRSTOR"},
            {"lockstep_kernel_fpu_area", "2696"},
            {"lockstep_kernel_fpu_xcr0", "0xe7"}}},
          {"benchmarks", json::array({
                             run("hash/sha256/sha256/x86-shani/64", 600),
                             sections(run("hash/sha256/sha256/linux:sha256/64", 200), 2),
                             sections(run("hash/sha256/sha256/linux:sha256/1024", 900), 2),
                             sections(run("hash/sha256/sha256/linux:sha256/16384", 1600), 2),
                             timed("kfpu/lazy/entry", 60, "ns"),
                             timed("kfpu/lazy/section", 0.01, "us"),
                             timed("kfpu/strict/section", 150, "ns"),
                         })}};
}

TEST(BenchReport, ParseReadsTheKernelFpuModelItsCostAndSectionsPerCall) {
  const Results r = parse(kernel_fpu_sample());
  EXPECT_EQ(r.kernel_fpu.model, "lazy");
  EXPECT_EQ(r.kernel_fpu.save, "XSAVEOPT");
  EXPECT_EQ(r.kernel_fpu.restore, "XRSTOR");
  EXPECT_EQ(r.kernel_fpu.area, 2696u);
  EXPECT_EQ(r.kernel_fpu.xcr0, "0xe7");
  EXPECT_DOUBLE_EQ(r.kernel_fpu.entry_ns.at("lazy"), 60);
  EXPECT_DOUBLE_EQ(r.kernel_fpu.section_ns.at("lazy"), 10);
  EXPECT_DOUBLE_EQ(r.kernel_fpu.section_ns.at("strict"), 150);
  const Algorithm& a = r.algorithms.at(0);
  EXPECT_DOUBLE_EQ(a.find("sha256/linux:sha256")->kernel_fpu_sections.at(64), 2);
  EXPECT_TRUE(a.find("sha256/x86-shani")->kernel_fpu_sections.empty());
  // No kfpu/ series: those are no algorithm's.
  EXPECT_EQ(r.algorithms.size(), 1u);
}

TEST(BenchReport, KernelFpuCostPerCallFollowsTheModel) {
  KernelFpu k = parse(kernel_fpu_sample()).kernel_fpu;
  // Lazy: one entry, then a further section.
  EXPECT_DOUBLE_EQ(*k.ns_per_call(2), 70);
  EXPECT_DOUBLE_EQ(*k.ns_per_call(0), 0);
  k.model = "strict";
  EXPECT_DOUBLE_EQ(*k.ns_per_call(2), 300);
  k.section_ns.clear();
  EXPECT_FALSE(k.ns_per_call(2));
}

TEST(BenchReport, KernelFpuTableShowsShortestAndLongestLengths) {
  const std::string t = kernel_fpu_table(parse(kernel_fpu_sample()));
  EXPECT_THAT(t, HasSubstr("- model: lazy (as the kernel runs"));
  EXPECT_THAT(t, HasSubstr("XSAVEOPT + XRSTOR, area 2696 bytes (XCR0 0xe7)"));
  EXPECT_THAT(t, HasSubstr("lazy: 60.0 ns per entry (a section and the return); 10.0 ns per further section; "
                           "strict: 150 ns per section"));
  // 64 B at 200 MB/s is 320 ns a call, 70 ns of it the model's: 21.9%.
  EXPECT_THAT(t, HasSubstr("| sha256/linux:sha256 | 64 | 200 | 2.00 | 70.0 | 22% |"));
  // 16384 B at 1600 MB/s is 10240 ns a call: 0.7%.
  EXPECT_THAT(t, HasSubstr("| sha256/linux:sha256 | 16384 | 1600 | 2.00 | 70.0 | 1% |"));
  EXPECT_THAT(t, Not(HasSubstr("| 1024 |")));
  EXPECT_THAT(t, Not(HasSubstr("x86-shani")));
  EXPECT_THAT(markdown(parse(kernel_fpu_sample())), HasSubstr("### Kernel glue's FPU sections"));
  EXPECT_EQ(kernel_fpu_table(parse(sample())), "");
}

// SHA-256 on a CPU where dispatch picks x86-shani, with a tree's two
// modules: an assembly function that declares avx2 bmi2 (x86-avx2's needs)
// a SHA-NI function that also asks for SSSE3 (closest to x86-shani, not
// equal), an AVX one that shares no feature with any own backend, and a
// glue that declares none. x86-avx512 has no module beside it.
json peer_sample() {
  json benchmarks = json::array({
      run("hash/sha256/sha256/x86-shani/64", 600),
      run("hash/sha256/sha256/x86-shani/4096", 1800),
      run("hash/sha256/sha256/x86-avx2/64", 300),
      run("hash/sha256/sha256/x86-avx2/4096", 900),
      run("hash/sha256/sha256/x86-avx512/64", 350),
      run("hash/sha256/sha256/linux:sha256_transform_rorx/64", 250),
      run("hash/sha256/sha256/linux:sha256_transform_rorx/4096", 1000),
      run("hash/sha256/sha256/linux:sha256_ni_transform/64", 500),
      run("hash/sha256/sha256/linux:sha256_ni_transform/4096", 1500),
      run("hash/sha256/sha256/linux:sha256_transform_avx/64", 200),
      run("hash/sha256/sha256/linux:sha256/64", 400),
      run("hash/sha256/sha256/linux:sha256/4096", 1200),
      run("hash/sha256/sha256/generic/64", 150),
      run("hash/sha256/sha256/generic/4096", 200),
  });
  return {{"context",
           {{"lockstep_cpu", "Test CPU"},
            {"lockstep_backend/sha256/x86-shani", "default;sha sse4.1"},
            {"lockstep_backend/sha256/x86-avx2", "own;avx2 bmi2"},
            {"lockstep_backend/sha256/x86-avx512", "own;avx512f avx512vl"},
            {"lockstep_backend/sha256/linux:sha256_transform_rorx", "module;avx2 bmi2"},
            {"lockstep_backend/sha256/linux:sha256", "module;"},
            {"lockstep_backend/sha256/linux:sha256_ni_transform", "module;sha ssse3 sse4.1"},
            {"lockstep_backend/sha256/linux:sha256_transform_avx", "module;avx"},
            {"lockstep_backend/sha256/generic", "own;"}}},
          {"benchmarks", benchmarks}};
}

std::vector<std::string> ids(const std::vector<const Series*>& v) {
  std::vector<std::string> out;
  for (const Series* s : v) out.push_back(s->id);
  return out;
}

TEST(BenchReport, ParseReadsEachBackendsRoleAndNeeds) {
  const Results r = parse(peer_sample());
  const Algorithm& a = r.algorithms.at(0);
  EXPECT_EQ(a.find("sha256/x86-shani")->role, "default");
  EXPECT_EQ(a.find("sha256/x86-avx2")->needs, "avx2 bmi2");
  EXPECT_EQ(a.find("sha256/linux:sha256")->role, "module");
  EXPECT_EQ(a.find("sha256/linux:sha256")->needs, "");
}

TEST(BenchReport, PeersPairByClosestNeedsAndGlueBesideTheDefault) {
  const Results r = parse(peer_sample());
  const std::vector<Peer> p = peers(r.algorithms.at(0));
  // Own non-generic backends only, in the run's order. The AVX module
  // shares no feature with any of them and stands beside none.
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].own->id, "sha256/x86-shani");
  EXPECT_EQ(ids(p[0].peers), (std::vector<std::string>{"sha256/linux:sha256_ni_transform", "sha256/linux:sha256"}));
  EXPECT_EQ(p[1].own->id, "sha256/x86-avx2");
  EXPECT_EQ(ids(p[1].peers), std::vector<std::string>{"sha256/linux:sha256_transform_rorx"});
  EXPECT_EQ(p[2].own->id, "sha256/x86-avx512");
  EXPECT_TRUE(p[2].peers.empty());
}

TEST(BenchReport, PeerTableHasRatiosReasonsAndNoPeer) {
  const std::string t = peer_table(parse(peer_sample()));
  // x86-avx2 / rorx: 300 / 250 and 900 / 1000.
  EXPECT_THAT(t, HasSubstr("sha256/x86-avx2 (needs avx2 bmi2) beside sha256/linux:sha256_transform_rorx"));
  EXPECT_THAT(t, HasSubstr("| 64 | 300 | 250 | 1.20x |"));
  EXPECT_THAT(t, HasSubstr("| 4096 | 900 | 1000 | 0.90x |"));
  // The glue beside the default, saying why: 600 / 400 and 1800 / 1200.
  EXPECT_THAT(t, HasSubstr("sha256/x86-shani (needs sha sse4.1) beside sha256/linux:sha256"));
  EXPECT_THAT(t, HasSubstr("declares no needs"));
  EXPECT_THAT(t, HasSubstr("| 64 | 600 | 400 | 1.50x |"));
  EXPECT_THAT(t, HasSubstr("| 4096 | 1800 | 1200 | 1.50x |"));
  EXPECT_THAT(t, HasSubstr("- sha256/x86-avx512 (needs avx512f avx512vl): no peer"));
  // Closest, not equal, and said so: 600 / 500.
  EXPECT_THAT(t, HasSubstr("sha256/x86-shani (needs sha sse4.1) beside sha256/linux:sha256_ni_transform"));
  EXPECT_THAT(t, HasSubstr("the closest needs: linux:sha256_ni_transform declares sha ssse3 sse4.1"));
  EXPECT_THAT(t, HasSubstr("| 64 | 600 | 500 | 1.20x |"));
  EXPECT_THAT(t, Not(HasSubstr("beside sha256/linux:sha256_transform_avx")));
  // Generic has no ISA to stand beside.
  EXPECT_THAT(t, Not(HasSubstr("sha256/generic (")));
  EXPECT_THAT(markdown(parse(peer_sample())), HasSubstr("## Closest peers"));
}

TEST(BenchReport, NoPeerTableWithoutModulesOrRoles) {
  EXPECT_EQ(peer_table(parse(sample())), "");
  json j = peer_sample();
  for (const char* m : {"sha256", "sha256_transform_rorx", "sha256_ni_transform", "sha256_transform_avx"})
    j["context"].erase(std::string("lockstep_backend/sha256/linux:") + m);
  EXPECT_EQ(peer_table(parse(j)), "");
}

TEST(BenchReport, SvgHasOnePolylinePerSeriesWithData) {
  const Results r = parse(sample());
  const std::string svg = bench_report::svg(r.algorithms[0], r);
  EXPECT_TRUE(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"")) << svg;
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
  const auto lines = polylines(svg);
  ASSERT_EQ(lines.size(), 4u) << svg;  // not x86-phe, which has no data
  EXPECT_EQ(lines[0].first, "sha256/x86-shani");
  EXPECT_EQ(lines[1].first, "sha256/generic");
  EXPECT_EQ(lines[2].first, "openssl");
  EXPECT_EQ(lines[3].first, "cryptopp");
  for (const auto& [id, xs] : lines) EXPECT_EQ(xs.size(), 2u) << id;
  // Anchors dashed, backends solid.
  size_t dashed = 0;
  for (const std::string& tag : polyline_tags(svg)) dashed += !attribute(tag, "stroke-dasharray").empty();
  EXPECT_EQ(dashed, 2u);
  EXPECT_THAT(svg, HasSubstr("SHA-256 throughput by message length"));
  EXPECT_THAT(svg, HasSubstr("message length (bytes, log scale)"));
  EXPECT_THAT(svg, HasSubstr("throughput (MB/s, log scale)"));
  EXPECT_THAT(svg, HasSubstr(">not run here:</text>"));
  EXPECT_THAT(svg, HasSubstr(">x86-phe</text>"));
  EXPECT_THAT(svg, HasSubstr(">Crypto++ (SHANI)</text>"));
  EXPECT_THAT(svg, HasSubstr("dashed: third-party anchors"));
}

TEST(BenchReport, SvgXAxisIsLogarithmicAndMonotonic) {
  // Every kernel length, on one series.
  json benchmarks = json::array();
  const size_t lengths[] = {1, 16, 64, 127, 128, 200, 256, 511, 512, 1024, 3173, 4096, 16384};
  for (const size_t len : lengths)
    benchmarks.push_back(run("hash/sha256/sha256/generic/" + std::to_string(len), 10 + static_cast<double>(len) / 100));
  const Results r = parse(json{{"benchmarks", benchmarks}});
  const Algorithm& a = r.algorithms[0];
  for (size_t i = 1; i < std::size(lengths); ++i)
    EXPECT_LT(x_position(a, lengths[i - 1]), x_position(a, lengths[i])) << lengths[i];
  // Log scale: equal ratios are equal distances (16 -> 64 -> 256 -> 1024).
  const double step = x_position(a, 64) - x_position(a, 16);
  EXPECT_NEAR(x_position(a, 256) - x_position(a, 64), step, 1e-6);
  EXPECT_NEAR(x_position(a, 1024) - x_position(a, 256), step, 1e-6);

  const std::string svg = bench_report::svg(a, r);
  const auto lines = polylines(svg);
  ASSERT_EQ(lines.size(), 1u);
  ASSERT_EQ(lines[0].second.size(), std::size(lengths));
  for (size_t i = 1; i < lines[0].second.size(); ++i) EXPECT_LT(lines[0].second[i - 1], lines[0].second[i]);
  // Every length has a tick label unless it would overlap one: 4096 and 128
  // are labelled, so 3173 and 127 are not.
  EXPECT_THAT(svg, HasSubstr(">4096</text>"));
  EXPECT_THAT(svg, HasSubstr(">128</text>"));
  EXPECT_THAT(svg, Not(HasSubstr(">127</text>")));
  EXPECT_THAT(svg, Not(HasSubstr(">3173</text>")));
}

// A series built as exactly 120 ns + 40 ns per compression: the fit must
// give those two numbers back. SHA-256 lengths 1, 55 (one block), 56 (two:
// the padding does not fit), 64 (two) and 1000 (16).
TEST(BenchReport, CallCostRecoversFixedAndPerBlockCost) {
  json benchmarks = json::array();
  for (const auto& [len, blocks] : {std::pair{1, 1}, {55, 1}, {56, 2}, {64, 2}, {1000, 16}}) {
    const double ns = 120 + 40.0 * blocks;
    benchmarks.push_back(run("hash/sha256/sha256/x86-shani/" + std::to_string(len), len * 1e3 / ns));
  }
  const Results r = parse({{"context", {{"mhz_per_cpu", 2000}}}, {"benchmarks", benchmarks}});
  const Algorithm& a = r.algorithms.at(0);
  const std::optional<CallCost> c = call_cost(a, a.series.at(0));
  ASSERT_TRUE(c.has_value());
  EXPECT_NEAR(c->fixed_ns, 120, 1e-6);
  EXPECT_NEAR(c->block_ns, 40, 1e-6);
  EXPECT_EQ(c->points, 5u);
  EXPECT_LT(c->worst_residual, 1e-9);
  // 120 ns and 40 ns at 2,000 MHz: 240 and 80 cycles.
  const std::string table = call_cost_table(a, r.mhz);
  EXPECT_THAT(table, HasSubstr("| x86-shani | 120.0 | 240 | 40.0 | 80 | 0% |"));
}

// SHA-512's block is 128 bytes with a 16-byte length field: 111 bytes are
// one block, 112 two. ChaCha counts 64-byte blocks, no padding.
TEST(BenchReport, CallCostCountsEachAlgorithmsBlocks) {
  json benchmarks = json::array();
  for (const auto& [len, blocks] : {std::pair{1, 1}, {111, 1}, {112, 2}, {300, 3}})
    benchmarks.push_back(run("hash/sha512/sha512/x86-avx2/" + std::to_string(len), len * 1e3 / (50 + 100.0 * blocks)));
  for (const auto& [len, blocks] : {std::pair{1, 1}, {64, 1}, {65, 2}, {1024, 16}})
    benchmarks.push_back(run("crypt/chacha20/chacha/x86-avx2/" + std::to_string(len), len * 1e3 / (30 + 10.0 * blocks)));
  const Results r = parse({{"benchmarks", benchmarks}});
  ASSERT_EQ(r.algorithms.size(), 2u);
  const std::optional<CallCost> sha = call_cost(r.algorithms[0], r.algorithms[0].series.at(0));
  const std::optional<CallCost> chacha = call_cost(r.algorithms[1], r.algorithms[1].series.at(0));
  ASSERT_TRUE(sha && chacha);
  EXPECT_NEAR(sha->fixed_ns, 50, 1e-6);
  EXPECT_NEAR(sha->block_ns, 100, 1e-6);
  EXPECT_NEAR(chacha->fixed_ns, 30, 1e-6);
  EXPECT_NEAR(chacha->block_ns, 10, 1e-6);
  // Without a clock the cycles columns are empty, not invented.
  EXPECT_THAT(call_cost_table(r.algorithms[1], 0), HasSubstr("| x86-avx2 | 30.0 | - | 10.0 | - | 0% |"));
}

// Two lengths cannot tell a fit from a line through them: no row.
TEST(BenchReport, CallCostNeedsThreeLengths) {
  const Results r = parse(sample());
  EXPECT_FALSE(call_cost(*r.find("sha256"), r.find("sha256")->series.at(0)).has_value());
  EXPECT_EQ(call_cost_table(*r.find("sha256"), r.mhz), "");
}

}  // namespace
}  // namespace lockstep::cli::bench_report
