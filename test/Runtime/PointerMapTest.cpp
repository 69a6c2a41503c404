//===- PointerMapTest.cpp - The flat map of live blocks -------------------===//
#include "sluice/Runtime/PointerMap.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <unordered_map>

using sluice::rt::PointerMap;

namespace {

const void *key(uint64_t i) {
  // Block-like addresses: 64-byte aligned, clustered, some far apart.
  return reinterpret_cast<const void *>(0x10000 + i * 64 +
                                        (i % 7 == 0 ? (i << 24) : 0));
}

TEST(PointerMapTest, MatchesAnUnorderedMapUnderRandomUse) {
  PointerMap<uint64_t> map;
  std::unordered_map<const void *, uint64_t> reference;
  std::mt19937_64 rng(7);
  for (int step = 0; step < 200000; ++step) {
    const void *k = key(rng() % 3000);
    switch (rng() % 3) {
    case 0: {
      uint64_t v = rng();
      map.insert(k, v);
      reference[k] = v;
      break;
    }
    case 1: {
      uint64_t got = 0;
      bool erased = map.erase(k, got);
      auto it = reference.find(k);
      ASSERT_EQ(erased, it != reference.end()) << "step " << step;
      if (erased) {
        EXPECT_EQ(got, it->second);
        reference.erase(it);
      }
      break;
    }
    default: {
      const uint64_t *v = map.find(k);
      auto it = reference.find(k);
      ASSERT_EQ(v != nullptr, it != reference.end()) << "step " << step;
      if (v) {
        EXPECT_EQ(*v, it->second);
      }
    }
    }
    ASSERT_EQ(map.size(), reference.size());
  }
  size_t seen = 0;
  map.forEach([&](const void *k, uint64_t v) {
    ++seen;
    auto it = reference.find(k);
    ASSERT_NE(it, reference.end());
    EXPECT_EQ(v, it->second);
  });
  EXPECT_EQ(seen, reference.size());
}

TEST(PointerMapTest, EmptiesAndRefills) {
  PointerMap<int> map;
  int out = 0;
  EXPECT_FALSE(map.erase(key(1), out));
  EXPECT_EQ(map.find(key(1)), nullptr);
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 1000; ++i)
      map.insert(key(i), i);
    for (int i = 0; i < 1000; ++i) {
      ASSERT_TRUE(map.erase(key(i), out));
      EXPECT_EQ(out, i);
    }
    EXPECT_EQ(map.size(), 0u);
    EXPECT_EQ(map.find(key(5)), nullptr);
  }
  map.insert(key(3), 4);
  map.clear();
  EXPECT_EQ(map.find(key(3)), nullptr);
}

} // namespace
