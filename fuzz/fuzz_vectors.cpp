// fuzz_vectors: the vector-file readers. Bad input must end in VectorError
// (a clear message naming file, test and field; the importers' ImportError
// is one), never a crash, a hang, an exception of another type, or a huge
// allocation.
//
// A first byte of 1 to 5 hands the rest of the input to an upstream importer
// (vectors/import): 1 Wycheproof, 2 ACVP internalProjection, 3 ACVP prompt
// and expected results (split at the first NUL byte), 4 CAVP .rsp, 5 Botan
// .vec. Any other input, which includes every seed of the committed corpus
// (JSON, starting with '{', '[', '"' or a blank), goes whole to lockstep's
// own loader.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <typeinfo>

#include "progress.h"
#include "vectors/import/import.h"
#include "vectors/vector_file.h"

namespace {

// Importers allocate a small multiple of their input; past this the harness
// would be testing the allocator.
constexpr size_t kMaxImportInput = size_t{1} << 20;

// import reads `text` with the importer `selector` picks.
void import(uint8_t selector, std::string_view text) {
  namespace imp = lockstep::vectors::import;
  switch (selector) {
    case 1: imp::read_wycheproof(text, "fuzz-input.json"); break;
    case 2: imp::read_acvp_projection(text, "fuzz-input.json"); break;
    case 3: {
      const size_t cut = text.find('\0');
      const std::string_view prompt = text.substr(0, cut);
      const std::string_view expected =
          cut == std::string_view::npos ? std::string_view() : text.substr(cut + 1);
      imp::read_acvp(prompt, "fuzz-input.prompt.json", expected, "fuzz-input.expected.json");
      break;
    }
    case 4: imp::read_cavp(text, "fuzz-input.rsp"); break;
    default: imp::read_botan(text, "fuzz-input.vec"); break;
  }
}

// expected_name is what every error message of that importer must contain.
const char* expected_name(uint8_t selector) {
  switch (selector) {
    case 1:
    case 2: return "fuzz-input.json";
    case 3: return "fuzz-input.";
    case 4: return "fuzz-input.rsp";
    default: return "fuzz-input.vec";
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const bool importer = size > 0 && data[0] >= 1 && data[0] <= 5;
  if (importer && size > kMaxImportInput) return 0;
  const char* name = importer ? expected_name(data[0]) : "fuzz-input.json";
  try {
    if (importer) {
      import(data[0], std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
    } else {
      // Descriptors may not expand beyond 1 MiB here: fuzzing the limit
      // check, not the allocator.
      const std::string text(reinterpret_cast<const char*>(data), size);
      lockstep::vectors::load_from_string(text, "fuzz-input.json", 1 << 20);
    }
  } catch (const lockstep::vectors::VectorError& e) {
    // The contract: the message names the file.
    if (std::string(e.what()).find(name) == std::string::npos) {
      std::fprintf(stderr, "lockstep: vector reader error without the file name: %s\n", e.what());
      std::abort();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lockstep: vector reader threw %s instead of VectorError: %s\n",
                 typeid(e).name(), e.what());
    std::abort();
  }
  lockstep::fuzz::progress_tick();
  return 0;
}
