#include "proofs/adversary/key_file.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>
#include "tests/scratch.hpp"

using namespace bankcheck::proofs;

namespace {
std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("the format: --format, else a .bin name, else text") {
  CHECK(key_format("", "keys.txt") == KeyFormat::text);
  CHECK(key_format("", "keys") == KeyFormat::text);
  CHECK(key_format("", "keys.bin") == KeyFormat::binary);
  CHECK(key_format("text", "keys.bin") == KeyFormat::text);
  CHECK(key_format("bin", "keys.txt") == KeyFormat::binary);
  CHECK_THROWS_AS(key_format("csv", "keys.txt"), std::invalid_argument);
}

TEST_CASE("text is one decimal key per line; binary is little-endian, 4 or 8 bytes") {
  const auto dir = bankcheck::test::scratch_dir();
  const std::vector<std::int64_t> keys = {0, -1, 258, 2147483647};
  {
    KeyFileWriter w((dir / "key_file_test.txt").string(), KeyFormat::text, 4);
    w.append(keys);
    w.commit();
  }
  CHECK(slurp(dir / "key_file_test.txt") == "0\n-1\n258\n2147483647\n");
  {
    KeyFileWriter w((dir / "key_file_test.bin").string(), KeyFormat::binary, 4);
    w.append(keys);
    CHECK(w.keys_written() == 4);
    w.commit();
  }
  const std::string b = slurp(dir / "key_file_test.bin");
  REQUIRE(b.size() == 16);
  CHECK(b.substr(4, 4) == std::string("\xff\xff\xff\xff", 4));
  CHECK(b.substr(8, 4) == std::string("\x02\x01\x00\x00", 4));  // 258 = 0x102
  {
    KeyFileWriter w((dir / "key_file_test8.bin").string(), KeyFormat::binary, 8);
    w.append(std::vector<std::int32_t>{1, -2});
    w.commit();
  }
  CHECK(slurp(dir / "key_file_test8.bin") == std::string("\x01\0\0\0\0\0\0\0\xfe\xff\xff\xff\xff\xff\xff\xff", 16));
  for (const char* f : {"key_file_test.txt", "key_file_test.bin", "key_file_test8.bin"}) std::filesystem::remove(dir / f);
}

TEST_CASE("keys that do not fit 4 bytes are refused") {
  CHECK_NOTHROW(check_key_fits(4, -2147483648LL, 2147483647));
  CHECK_THROWS_AS(check_key_fits(4, 0, 2147483648LL), std::invalid_argument);
  CHECK_NOTHROW(check_key_fits(8, 0, 2147483648LL));
}
