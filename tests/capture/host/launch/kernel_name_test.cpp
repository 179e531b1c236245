// Tests of capture/host/launch/kernel_name.hpp: base names and identities of
// kernel names as c++filt (the capture's launches.csv) and Nsight Compute
// 2025.3 (its source page) spell them; the pairs below are copied from
// launches.csv and ncu.sass.csv of the same launches, H100, 2026-11-23
// (validate/results/h100-2026-11-23/capture/real-programs.tar.xz).
#include "capture/host/launch/kernel_name.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

using namespace bankcheck::capture;

TEST_CASE("kernel base names match across demanglers") {
  CHECK(kernel_base_name("void bankcheck::kernels::phased_kernel<<unnamed>::TransposeFactory<unsigned int>>(T1)") ==
        "phased_kernel");
  CHECK(kernel_base_name("void bankcheck::kernels::phased_kernel<(anonymous namespace)::TransposeFactory<unsigned int> >((anonymous namespace)::TransposeFactory<unsigned int>)") ==
        "phased_kernel");
  CHECK(kernel_base_name("transpose(float*)") == "transpose");
  // PyTorch's kernels in an anonymous namespace, as c++filt and as ncu name them (H100, 2026-11-23)
  CHECK(kernel_base_name("void at::native::(anonymous namespace)::cunn_SoftMaxForwardReg<float, float, float, "
                         "at::native::(anonymous namespace)::SoftMaxForwardEpilogue, long, 4>(float*, float const*, "
                         "long)") == "cunn_SoftMaxForwardReg");
  CHECK(kernel_base_name("void at::native::<unnamed>::cunn_SoftMaxForwardReg<float, float, float, "
                         "at::native::<unnamed>::SoftMaxForwardEpilogue, long, (int)4>(T3 *, const T1 *, T5)") ==
        "cunn_SoftMaxForwardReg");
  CHECK(kernel_base_name("void (anonymous namespace)::k(int)") == "k");
  CHECK(kernel_base_name("_Z1kv") == "_Z1kv");
}

TEST_CASE("kernel base names of the names on committed pages, the rows the Python rule is held to") {
  // tests/data/kernel_names/base_names.tsv (function, name, where from): its header says where each row's
  // function comes from; tests/validate/kernel_names_test.py holds validate/harness/kernel_names.py to it.
  std::ifstream in(std::filesystem::path(BANKCHECK_SOURCE_DIR) / "tests/data/kernel_names/base_names.tsv");
  REQUIRE(in);
  int rows = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t name = line.find('\t') + 1, from = line.find('\t', name);
    REQUIRE(from != std::string::npos);
    CAPTURE(line);
    CHECK(kernel_base_name(line.substr(name, from - name)) == line.substr(0, name - 1));
    ++rows;
  }
  CHECK(rows >= 75);
}

TEST_CASE("one function spelled by c++filt and by ncu has one identity") {
  struct Pair {
    const char* cxxfilt;
    const char* ncu;
  };
  const Pair pairs[] = {
      {"void scan<(cub::CUB_300001_SM_900::BlockScanAlgorithm)2>(unsigned int const*, unsigned int*)",
       "void scan<(cub::CUB_300001_SM_900::BlockScanAlgorithm)2>(const unsigned int *, unsigned int *)"},
      {"void cub::CUB_300001_SM_900::detail::histogram::DeviceHistogramInitKernel<1, int, int>(cuda::std::__4::array<int, "
       "1>, cuda::std::__4::array<int*, 1>, cub::CUB_300001_SM_900::GridQueue<int>)",
       "void cub::CUB_300001_SM_900::detail::histogram::DeviceHistogramInitKernel<(int)1, int, int>(cuda::std::__4::"
       "array<int, T1>, cuda::std::__4::array<T2 *, T1>, cub::CUB_300001_SM_900::GridQueue<int>)"},
      {"void cub::CUB_300001_SM_900::detail::merge_sort::DeviceMergeSortPartitionKernel<unsigned long*, unsigned long "
       "long, Less, unsigned long>(bool, unsigned long*, unsigned long*, unsigned long long, unsigned long long, "
       "unsigned long long*, Less, unsigned long long, int)",
       "void cub::CUB_300001_SM_900::detail::merge_sort::DeviceMergeSortPartitionKernel<unsigned long *, unsigned long "
       "long, Less, unsigned long>(bool, T1, T4 *, T2, T2, T2 *, T3, T2, int)"},
      {"void at::native::(anonymous namespace)::cunn_SoftMaxForwardReg<float, float, float, at::native::(anonymous "
       "namespace)::SoftMaxForwardEpilogue, long, 4>(float*, float const*, long)",
       "void at::native::<unnamed>::cunn_SoftMaxForwardReg<float, float, float, at::native::<unnamed>::"
       "SoftMaxForwardEpilogue, long, (int)4>(T3 *, const T1 *, T5)"},
      {"void k<true, 3u, -2>(int)", "void k<(bool)1, (unsigned int)3, (int)-2>(int)"},
      {"void k<false, 7ul, f<int const*> >(int)", "void k<(bool)0, (unsigned long)7, f<const int *>>(T1)"},
      {"matmul_kernel", "matmul_kernel"},
  };
  for (const Pair& p : pairs) {
    CAPTURE(p.cxxfilt);
    CHECK(demangled_identity(p.cxxfilt) == demangled_identity(p.ncu));
  }
}

TEST_CASE("two instantiations of one template, or two functions, have two identities") {
  // PyTorch's reduce_kernel: one base name, many instantiations (compare once paired them).
  const char* a = "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
                  "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
                  "unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
                  "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
                  "unsigned int, float, 4, 4>)";
  const char* b = "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
                  "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
                  "unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
                  "at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
                  "unsigned int, float, 4, 4>)";
  CHECK(kernel_base_name(a) == kernel_base_name(b));
  CHECK(demangled_identity(a) != demangled_identity(b));
  CHECK(demangled_identity("void k<int>(int)") != demangled_identity("void k<long>(int)"));
  CHECK(demangled_identity("void k<1>(int)") != demangled_identity("void k<(int)2>(int)"));
  CHECK(demangled_identity("void k<true>(int)") != demangled_identity("void k<(bool)0>(int)"));
  CHECK(demangled_identity("void a::k(int)") != demangled_identity("void b::k(int)"));
  CHECK(demangled_identity("void k<int const*>(int)") != demangled_identity("void k<int*>(int)"));
}

TEST_CASE("the name a filter sees in each base, as ncu's --kernel-name-base") {
  const char* mangled = "_ZN2ns1kIiEEvT_";
  const char* demangled = "void ns::k<int>(int)";
  CHECK(kernel_name_in_base(KernelNameBase::function, mangled, demangled) == "k");
  CHECK(kernel_name_in_base(KernelNameBase::demangled, mangled, demangled) == demangled);
  CHECK(kernel_name_in_base(KernelNameBase::mangled, mangled, demangled) == mangled);
  CHECK(kernel_name_in_base(KernelNameBase::function, "matmul_kernel", "matmul_kernel") == "matmul_kernel");
  CHECK(parse_kernel_name_base("mangled") == KernelNameBase::mangled);
  CHECK_THROWS_WITH_AS(parse_kernel_name_base("base"), doctest::Contains("function, demangled, mangled"),
                       std::invalid_argument);
  CHECK(is_mangled_name(mangled));
  CHECK_FALSE(is_mangled_name("matmul_kernel"));
}

TEST_CASE("mangled names demangle as c++filt prints them; other names stay whole") {
  // c++filt's output for each (binutils 2.40)
  CHECK(demangled_name("_Z12probe_ld32_aPj") == "probe_ld32_a(unsigned int*)");
  CHECK(demangled_name("_ZN2ns1kIiEEvT_") == "void ns::k<int>(int)");
  CHECK(kernel_base_name(demangled_name("_ZN2ns1kIiEEvT_")) == "k");
  CHECK(demangled_name("matmul_kernel") == "matmul_kernel");
  CHECK(demangled_name("_Z") == "_Z");
  CHECK(demangled_name("") == "");
}
