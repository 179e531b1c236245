// The truth for bankcheck's layout parser: random CuTe layouts printed by
// CuTe itself (cute::print) with the offset CuTe gives each 1-D index.
// Host code only; the headers are the nvidia-cutlass wheel's (scripts/setup.sh
// unpacks them into .deps/cutlass/include):
//   nvcc -std=c++17 -x cu -I.deps/cutlass/include validate/layout/cute_truth.cu -o cute_truth
//   ./cute_truth SEED COUNT > tests/data/layouts/cute_truth.txt
// One line per layout: the printed form, a tab, the offsets of indices
// 0..size-1 separated by spaces (byte addresses, for a tensor's form). Swizzled layouts keep offsets non-negative
// (bankcheck refuses a swizzle of a negative element offset); plain layouts
// draw negative strides too.
#include <cute/layout.hpp>
#include <cute/layout_composed.hpp>
#include <cute/swizzle.hpp>
#include <cute/swizzle_layout.hpp>
#include <cute/numeric/numeric_types.hpp>
#include <cute/pointer.hpp>
#include <cute/pointer_swizzle.hpp>
#include <cute/tensor.hpp>
#include <cutlass/version.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <utility>

namespace {

struct Bms {
  int b, m, s;
};
// Every Swizzle<B,M,S> with B 0..3, M 0..4, |S| in B..4 (CuTe's |S| >= B), S of either sign.
constexpr int kSwizzles = 4 * 5 * 2 * 5;
constexpr Bms swizzle_at(int i) {
  const int b = i / 50, m = (i / 10) % 5, sign = (i / 5) % 2, s = i % 5;
  return {b, m, sign ? -s : s};
}
constexpr bool usable(int i) {
  const Bms x = swizzle_at(i);
  return (x.s < 0 ? -x.s : x.s) >= x.b;
}

std::mt19937_64 rng;
int draw(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

template <class L>
void emit_offsets(const L& layout) {
  std::printf("\t");
  for (int i = 0; i < int(cute::size(layout)); ++i) std::printf(i ? " %d" : "%d", int(layout(i)));
  std::printf("\n");
}

// Prints "form<TAB>offsets" of a plain layout.
template <class L>
void emit_plain(const L& layout) {
  cute::print(layout);
  emit_offsets(layout);
}

// A tensor over a swizzled shared-memory pointer (never dereferenced): cute::print
// writes "Sw<B,M,S>_smem_ptr[16b](0x...) o L", and &tensor(i) is the swizzled byte address.
template <class S, class L>
void emit_tensor(S swizzle, const L& layout) {
  auto* base = reinterpret_cast<cute::half_t*>(std::uintptr_t{0x7f0a00000000} + 16 * draw(0, 4095));
  auto tensor = cute::make_tensor(cute::make_swizzle_ptr(cute::make_smem_ptr(base), swizzle), layout);
  cute::print(tensor.data());
  cute::print(" o ");
  cute::print(tensor.layout());
  std::printf("\t");
  for (int i = 0; i < int(cute::size(layout)); ++i)
    std::printf(i ? " %llu" : "%llu", (unsigned long long)reinterpret_cast<std::uintptr_t>(&tensor(i)));
  std::printf("\n");
}

// Prints "form<TAB>offsets" of the layout, alone, composed with a random
// swizzle and offset (element offsets), or as a swizzled tensor (byte addresses).
template <class L>
void emit(const L& layout, bool swizzled) {
  if (!swizzled) return emit_plain(layout);
  int pick;
  do pick = draw(0, kSwizzles - 1);
  while (!usable(pick));
  const bool tensor = draw(0, 2) == 0;
  const int offset = draw(0, 3) == 0 ? draw(1, 64) : 0;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (([&] {
       if constexpr (usable(int(I))) {
         if (pick != int(I)) return;
         constexpr Bms x = swizzle_at(int(I));
         if (tensor) return emit_tensor(cute::Swizzle<x.b, x.m, x.s>{}, layout);
         auto c = cute::make_composed_layout(cute::Swizzle<x.b, x.m, x.s>{}, offset, layout);
         cute::print(c);
         emit_offsets(c);
       }
     }()),
     ...);
  }(std::make_index_sequence<kSwizzles>{});
}

// A stride: negative only for plain layouts, 0 sometimes (a broadcast mode).
int stride(bool swizzled) {
  if (draw(0, 5) == 0) return 0;
  return swizzled ? draw(1, 64) : draw(-64, 64);
}

void one(int form, bool swizzled) {
  using cute::make_shape;
  using cute::make_stride;
  auto n = [] { return draw(1, 8); };
  auto d = [&] { return stride(swizzled); };
  // Strides left to CuTe (column-major, the first one static _1); plain only,
  // which keeps the swizzles' instantiations (and the build time) half.
  const bool compact = !swizzled && draw(0, 4) == 0;
  auto make = [&](auto shape, auto strides) {
    if (compact) emit_plain(cute::make_layout(shape));
    else emit(cute::make_layout(shape, strides), swizzled);
  };
  switch (form) {
    case 0: make(make_shape(n()), make_stride(d())); break;
    case 1: make(make_shape(n(), n()), make_stride(d(), d())); break;
    case 2: make(make_shape(n(), n(), n()), make_stride(d(), d(), d())); break;
    case 3: make(make_shape(make_shape(n(), n()), n()), make_stride(make_stride(d(), d()), d())); break;
    case 4: make(make_shape(n(), make_shape(n(), n())), make_stride(d(), make_stride(d(), d()))); break;
    case 5:
      make(make_shape(make_shape(n(), n()), make_shape(n(), n())),
           make_stride(make_stride(d(), d()), make_stride(d(), d())));
      break;
    case 6: make(make_shape(n(), make_shape(n(), n()), n()), make_stride(d(), make_stride(d(), d()), d())); break;
    default:
      make(make_shape(make_shape(n(), make_shape(n(), n())), n()),
           make_stride(make_stride(d(), make_stride(d(), d())), d()));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: cute_truth SEED COUNT\n");
    return 2;
  }
  const unsigned long long seed = std::strtoull(argv[1], nullptr, 10);
  const int count = std::atoi(argv[2]);
  if (count < 1 || count > 100000) {
    std::fprintf(stderr, "cute_truth: COUNT %s is outside 1..100000\n", argv[2]);
    return 2;
  }
  rng.seed(seed);
  std::printf("# cute_truth seed %llu count %d, CUTLASS %d.%d.%d (cute::print, layout(i), &tensor(i))\n", seed, count,
              CUTLASS_MAJOR, CUTLASS_MINOR, CUTLASS_PATCH);
  for (int k = 0; k < count; ++k) one(draw(0, 7), draw(0, 1) == 1);
}
