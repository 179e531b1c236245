// A user's own warp access pattern, priced by the installed library.
// Expected counts, by hand: with 32 banks of 4 bytes, lane l reading the
// 4-byte word s*l hits bank (s*l) mod 32; stride 1 and 33 spread the lanes
// over all banks (1 wavefront), stride 2 puts two distinct words in each of
// 16 banks (2 wavefronts, 1 conflict), stride 32 puts all 32 in bank 0.
#include "model/bank_model.hpp"

#include <cstdio>
#include <vector>

int main() {
  const bankcheck::BankModel model = bankcheck::make_preset("sm90");
  struct Case {
    unsigned stride;
    unsigned wavefronts, conflicts;
  };
  const Case cases[] = {{1, 1, 0}, {2, 2, 1}, {32, 32, 31}, {33, 1, 0}};
  int failures = 0;
  for (const Case& c : cases) {
    std::vector<std::uint64_t> addr(32);
    for (unsigned lane = 0; lane < 32; ++lane) addr[lane] = 4ull * c.stride * lane;
    const bankcheck::RequestCost cost = model.cost({bankcheck::Op::load, 4, addr});
    const bool ok = cost.wavefronts == c.wavefronts && cost.conflicts() == c.conflicts;
    std::printf("stride %2u: %llu wavefronts, %llu conflicts%s\n", c.stride,
                static_cast<unsigned long long>(cost.wavefronts), static_cast<unsigned long long>(cost.conflicts()),
                ok ? "" : "  (wrong)");
    failures += !ok;
  }
  return failures == 0 ? 0 : 1;
}
