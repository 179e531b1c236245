// CfLarger against brute force: over every sequence of up to 5 items drawn from
// keys that are equivalent under the comparator but differ in bits (Coarse
// orders by key / 10) and from values that differ, a left fold and every
// bracketing of it (associativity, as cub::BlockReduce needs) give the largest
// key's class, contested exactly where that class holds two items of different
// bits; items marked not real never count.
#include "kernels/cf_largest_item.cuh"

#include <doctest/doctest.h>

#include <functional>
#include <vector>

namespace cf_largest_item_test {

using bankcheck::cf::detail::CfLargestItem;
using bankcheck::cf::detail::CfLarger;
using Item = CfLargestItem<int, int>;

struct Coarse {
  bool operator()(int a, int b) const { return a / 10 < b / 10; }
};

/// The brute-force answer: (any real item of the largest class, whether that class has two different items).
struct Expected {
  bool any = false;
  int cls = 0;
  bool contested = false;
};
Expected brute_force(const std::vector<Item>& items) {
  Expected e;
  for (const Item& x : items)
    if (x.real && (!e.any || x.key / 10 > e.cls)) e.any = true, e.cls = x.key / 10;
  const Item* first = nullptr;
  for (const Item& x : items) {
    if (!x.real || x.key / 10 != e.cls) continue;
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

TEST_CASE("CfLarger: the largest class, contested where it holds two different items, under every bracketing") {
  // keys 21 and 25 are equivalent (class 2) with different bits; 13 is smaller
  const std::vector<Item> pool = {{21, 0, true, false}, {21, 0, true, false}, {21, 1, true, false},
                                  {25, 0, true, false}, {13, 7, true, false}, {99, 5, false, false}};
  const CfLarger<int, int, Coarse> op{Coarse{}};
  int cases = 0;
  std::vector<Item> items;
  std::function<void(int)> grow = [&](int left) {
    if (!items.empty()) {
      const Expected want = brute_force(items);
      every_bracketing(items, 0, static_cast<int>(items.size()), op, [&](const Item& got) {
        ++cases;
        CHECK(got.real == want.any);
        if (!want.any) return;
        CHECK(got.key / 10 == want.cls);
        CHECK(got.contested == want.contested);
      });
    }
    if (left == 0) return;
    for (const Item& x : pool) {
      items.push_back(x);
      grow(left - 1);
      items.pop_back();
    }
  };
  grow(4);
  CHECK(cases == 6 + 36 * 1 + 216 * 2 + 1296 * 5);  // 6^len sequences times Catalan(len - 1) bracketings
}

}  // namespace cf_largest_item_test
