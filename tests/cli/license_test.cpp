// The project is meant to be used and extended by others: it carries a
// permissive license, and the README says which.
#include <doctest/doctest.h>

#include <string>

#include "tests/cli/cli_runner.hpp"

TEST_CASE("LICENSE is the MIT license and the README names it") {
  const std::string license = bankcheck::test::slurp(BANKCHECK_SOURCE_DIR "/LICENSE");
  CHECK(license.rfind("MIT License\n", 0) == 0);
  CHECK(license.find("Permission is hereby granted, free of charge") != std::string::npos);
  const std::string readme = bankcheck::test::slurp(BANKCHECK_SOURCE_DIR "/README.md");
  CHECK(readme.find("MIT license ([LICENSE](LICENSE))") != std::string::npos);
}
