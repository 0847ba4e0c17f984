// One Wycheproof file being read (not part of the importer's interface):
// what every group reader shares. wycheproof.cpp reads the document and the
// MacTest groups, wycheproof_chacha.cpp the AeadTest and StreamCipherTest
// groups of the ChaCha files.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "reader_util.h"

namespace lockstep::vectors::import::detail {

class WycheproofFile {
 public:
  explicit WycheproofFile(const std::string& name) : w(name) { out.name = name; }

  // begin_test reads and checks tests[index] of group `group`: an object
  // with a tcId no other test has, a string comment and string flags. It
  // makes the test the place of later errors and returns its tcId.
  uint64_t begin_test(const json& t, size_t group, size_t index);
  // result reads "result": valid, invalid or acceptable.
  Expect result(const json& t);
  // skip_test adds a skipped case for the test just begun.
  void skip_test(uint64_t id, const std::string& why);

  Where w;
  ImportedFile out;

 private:
  std::map<uint64_t, std::string> ids_;  // tcId -> where it was first seen
};

// The group readers of the ChaCha files. `cipher` is the catalog name of
// the AEAD's cipher, "chacha20" or "xchacha20".
void read_aead_group(WycheproofFile& f, const json& group, size_t g, std::string_view cipher);
void read_stream_group(WycheproofFile& f, const json& group, size_t g);

}  // namespace lockstep::vectors::import::detail
