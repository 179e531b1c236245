// The padding test of kernels/cf_largest_item.cuh against brute force: over
// every sequence of up to 5 items drawn from keys that are equivalent under
// the comparator but differ in bits (Coarse orders by key / 10) and from values
// that differ, CfLarger under every bracketing (a warp's shuffles and the
// block's order of warps are some bracketing) returns an item of the largest
// key's class, and some item breaks a copy of it (cf_breaks_copy) exactly where
// that class holds two items of different bits.
#include "kernels/cf_largest_item.cuh"

#include <doctest/doctest.h>

#include <functional>
#include <vector>

namespace cf_largest_item_test {

using bankcheck::cf::detail::cf_breaks_copy;
using bankcheck::cf::detail::CfItem;
using bankcheck::cf::detail::CfLarger;
using Item = CfItem<int, int>;

struct Coarse {
  bool operator()(int a, int b) const { return a / 10 < b / 10; }
};

/// The brute-force answer: the largest class, and whether it has two different items.
struct Expected {
  int cls = 0;
  bool contested = false;
};
Expected brute_force(const std::vector<Item>& items) {
  Expected e{items[0].key / 10, false};
  for (const Item& x : items)
    if (x.key / 10 > e.cls) e.cls = x.key / 10;
  const Item* first = nullptr;
  for (const Item& x : items) {
    if (x.key / 10 != e.cls) continue;
    if (first == nullptr) first = &x;
    else if (x.key != first->key || x.val != first->val) e.contested = true;
  }
  return e;
}

/// Every bracketing of items[lo, hi) reduced by op, each result passed to check.
void every_bracketing(const std::vector<Item>& items, int lo, int hi, const CfLarger<int, int, Coarse>& op,
                      const std::function<void(const Item&)>& check) {
  if (hi - lo == 1) return check(items[lo]);
  for (int mid = lo + 1; mid < hi; ++mid)
    every_bracketing(items, lo, mid, op, [&](const Item& left) {
      every_bracketing(items, mid, hi, op, [&](const Item& right) { check(op(left, right)); });
    });
}

TEST_CASE("CfLarger and cf_breaks_copy: the largest class, broken where it holds two different items, any bracketing") {
  // keys 21 and 25 are equivalent (class 2) with different bits; 13 is smaller
  const std::vector<Item> pool = {{21, 0}, {21, 0}, {21, 1}, {25, 0}, {13, 7}};
  const CfLarger<int, int, Coarse> op{Coarse{}};
  int cases = 0, contested = 0;
  std::vector<Item> items;
  std::function<void(int)> grow = [&](int left) {
    if (!items.empty()) {
      const Expected want = brute_force(items);
      every_bracketing(items, 0, static_cast<int>(items.size()), op, [&](const Item& m) {
        ++cases;
        CHECK(m.key / 10 == want.cls);
        bool breaks = false;
        for (const Item& x : items) breaks = breaks || cf_breaks_copy(x.key, x.val, m, Coarse{});
        CHECK(breaks == want.contested);
        contested += want.contested ? 1 : 0;
      });
    }
    if (left == 0) return;
    for (const Item& x : pool) {
      items.push_back(x);
      grow(left - 1);
      items.pop_back();
    }
  };
  grow(5);
  CHECK(cases == 5 + 25 * 1 + 125 * 2 + 625 * 5 + 3125 * 14);  // 5^len sequences times Catalan(len - 1) bracketings
  CHECK(contested > 0);
  CHECK(contested < cases);
}

TEST_CASE("cf_breaks_copy: a copy, an equivalent key, a different value, a smaller or larger key") {
  const Coarse less;
  const Item m{21, 4};
  CHECK_FALSE(cf_breaks_copy(21, 4, m, less));  // a bit copy
  CHECK(cf_breaks_copy(25, 4, m, less));        // equivalent key, other bits
  CHECK(cf_breaks_copy(21, 5, m, less));        // the same key, another value
  CHECK_FALSE(cf_breaks_copy(13, 5, m, less));  // smaller: never equivalent
  CHECK_FALSE(cf_breaks_copy(35, 4, m, less));  // larger (m is then not the largest; not equivalent either)
}

}  // namespace cf_largest_item_test
