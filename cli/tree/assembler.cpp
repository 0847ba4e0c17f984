#include "assembler.h"

#include <fstream>
#include <map>
#include <mutex>

#include <nlohmann/json.hpp>

#include "process.h"

namespace lockstep::cli::tree {

namespace fs = std::filesystem;

std::vector<std::string> assembler_config(const std::string& cc, const std::string& arch, const fs::path& source_dir,
                                          const fs::path& work) {
  static std::mutex mu;
  static std::map<std::string, std::vector<std::string>> probed;
  const std::lock_guard lock(mu);
  const std::string key = cc + "\n" + arch;
  if (const auto it = probed.find(key); it != probed.end()) return it->second;

  std::vector<std::string> defined;
  nlohmann::json table;
  try {
    std::ifstream in(source_dir / "trees" / "support" / "assembler_probes.json");
    table = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception&) {
    return probed[key] = defined;  // the table is lockstep's own: its tests read it
  }
  std::error_code ec;
  fs::create_directories(work, ec);
  const nlohmann::json probes = table.value(arch, nlohmann::json::object());
  for (const auto& [symbol, instruction] : probes.items()) {
    const fs::path probe = work / (arch + "-" + symbol + ".s"), log = work / (arch + "-" + symbol + ".log");
    std::ofstream(probe) << instruction.get<std::string>() << "\n";
    const ProcessResult r = run_process({cc, "-c", "-x", "assembler", probe.string(), "-o", "/dev/null"}, {},
                                        log.string());
    if (r.error.empty() && r.status == 0) defined.push_back(symbol);
  }
  return probed[key] = defined;
}

}  // namespace lockstep::cli::tree
