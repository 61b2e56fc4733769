//===- ext_test_util.h - scratch directories and shipped files for the ext tests ===//
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace opforge::isa {

// A scratch directory removed at the end of the test.
class ExtTempDir {
 public:
  ExtTempDir() {
    char tmpl[] = "/tmp/opforge-ext-XXXXXX";
    const char *p = mkdtemp(tmpl);
    path_ = p ? p : "/tmp";
  }
  ~ExtTempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string &name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// A file of isa/ext/ in the source tree.
inline std::string shipped_extension(const std::string &name) {
  return (std::filesystem::path(__FILE__).parent_path() / ".." / ".." / "isa" / "ext" / name)
      .lexically_normal()
      .string();
}

}  // namespace opforge::isa
