// Tests of capture/host/ring/function_map.hpp.
#include "capture/host/ring/function_map.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "tests/cli/cli_runner.hpp"
#include "tests/scratch.hpp"
#include "tests/skip.hpp"

using namespace bankcheck::capture;

TEST_CASE("pcs to FUNCTION+0xOFFSET and back") {
  FunctionMap m;
  m.add("a", 0x100, 0x40);
  m.add("b", 0x200, 0x10);
  CHECK(m.site(0x100) == "a+0x0");
  CHECK(m.site(0x13f) == "a+0x3f");
  CHECK(m.site(0x140) == "?+0x140");
  CHECK(m.site(0x20f) == "b+0xf");
  CHECK(m.site(0x50) == "?+0x50");
  CHECK(m.unknown_pcs() == 2);
  const auto ref = parse_site_name("_ZN2ns1fIiEEvv+0xa30");
  REQUIRE(ref);
  CHECK(ref->function == "_ZN2ns1fIiEEvv");
  CHECK(ref->offset == 0xa30);
  CHECK_FALSE(parse_site_name("probe"));
  CHECK_FALSE(parse_site_name("+0x10"));
  CHECK_FALSE(parse_site_name("f+0xzz"));
  CHECK_THROWS_AS(m.add("c", 0, 0), std::invalid_argument);
}

TEST_CASE("function names from a cubin's ELF symbol table") {
  CHECK(cubin_function_names({}).empty());
  const std::string not_elf = "BKTRACE not an elf image at all, long enough to be read as a header........";
  CHECK(cubin_function_names({reinterpret_cast<const std::byte*>(not_elf.data()), not_elf.size()}).empty());
  // A real cubin, when nvcc is on this machine (CI has it): its kernels are listed.
  // No nvcc is a skip; an nvcc that fails is a failure, with its output.
  if (std::system("command -v nvcc >/dev/null 2>&1") != 0) {
    bankcheck::test::skip("the real-cubin half: no nvcc on PATH");
    return;
  }
  const auto dir = bankcheck::test::scratch_dir();
  const auto cu = dir / "bankcheck_fm_test.cu", cubin = dir / "bankcheck_fm_test.cubin", log = dir / "nvcc.log";
  std::ofstream(cu) << "__global__ void first_kernel(int* p) { p[threadIdx.x] = 1; }\n"
                       "__global__ void second_kernel(float* p) { p[0] = 2; }\n";
  const std::string cmd =
      "nvcc -arch=sm_90 -cubin -o " + cubin.string() + " " + cu.string() + " >" + log.string() + " 2>&1";
  REQUIRE_MESSAGE(std::system(cmd.c_str()) == 0, "nvcc failed: " << cmd << "\n" << bankcheck::test::slurp(log.string()));
  std::ifstream in(cubin, std::ios::binary);
  const std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto names = cubin_function_names({reinterpret_cast<const std::byte*>(image.data()), image.size()});
  CHECK(names == std::vector<std::string>{"_Z12first_kernelPi", "_Z13second_kernelPf"});
  const auto functions = cubin_functions({reinterpret_cast<const std::byte*>(image.data()), image.size()});
  REQUIRE(functions.size() == 2);
  CHECK(functions[0].name == "_Z12first_kernelPi");
  CHECK(functions[0].symbol != functions[1].symbol);  // their places in .symtab: what nvdisasm -fun takes
  CHECK(functions[0].symbol > 0);  // symbol 0 is ELF's null symbol
  std::filesystem::remove(cu);
  std::filesystem::remove(cubin);
}
