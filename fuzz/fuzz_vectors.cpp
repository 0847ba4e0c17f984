// fuzz_vectors: the vector-file reader. Bad input must end in VectorError
// (a clear message naming file, test and field), never a crash, a hang, an
// exception of another type, or a huge allocation.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <typeinfo>

#include "progress.h"
#include "vectors/vector_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    // Descriptors may not expand beyond 1 MiB here: fuzzing the limit check,
    // not the allocator.
    lockstep::vectors::load_from_string(text, "fuzz-input.json", 1 << 20);
  } catch (const lockstep::vectors::VectorError& e) {
    // The contract: the message names the file.
    if (std::string(e.what()).find("fuzz-input.json") == std::string::npos) {
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
