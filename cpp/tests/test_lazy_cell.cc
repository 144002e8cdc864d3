// LazyCell: loaded once whoever asks first, failures remembered, a throwing load retried.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "sync/lazy_cell.h"

namespace pyfileindex::sync {
namespace {

TEST(LazyCell, LoadsOnceAndHandsOutTheSameValue) {
  LazyCell<std::vector<int>> cell;
  int loads = 0;
  auto load = [&]() -> Result<std::vector<int>> {
    ++loads;
    return std::vector<int>{1, 2, 3};
  };
  Result<const std::vector<int>*> first = cell.Get(load);
  Result<const std::vector<int>*> second = cell.Get(load);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*first, *second);
  EXPECT_EQ(**first, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(loads, 1);
}

TEST(LazyCell, RemembersAFailedLoad) {
  LazyCell<int> cell;
  int loads = 0;
  auto load = [&]() -> Result<int> {
    ++loads;
    if (loads == 1) return Status::Corrupt("slice 3 overruns the buffer");
    return 7;
  };
  Result<const int*> first = cell.Get(load);
  Result<const int*> second = cell.Get(load);
  ASSERT_FALSE(first.ok());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().ToString(), first.status().ToString());
  EXPECT_NE(second.status().ToString().find("slice 3"), std::string::npos);
  EXPECT_EQ(loads, 1);
}

TEST(LazyCell, RetriesALoadThatThrew) {
  LazyCell<int> cell;
  int loads = 0;
  auto load = [&]() -> Result<int> {
    if (++loads == 1) throw std::runtime_error("out of memory");
    return 42;
  };
  EXPECT_THROW(cell.Get(load), std::runtime_error);
  Result<const int*> value = cell.Get(load);
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(**value, 42);
  EXPECT_EQ(loads, 2);
}

TEST(LazyCell, ThreadsRacingOnAnEmptyCellLoadItOnce) {
  constexpr int kThreads = 8;
  for (int round = 0; round < 20; ++round) {
    LazyCell<int> cell;
    std::atomic<int> loads{0};
    std::atomic<int> ready{0};
    std::vector<const int*> seen(kThreads, nullptr);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        ready.fetch_add(1);
        // Yield while waiting: 8 spinning threads on 2 cores (and under TSan) would
        // otherwise starve the threads that have not started yet.
        while (ready.load() < kThreads) std::this_thread::yield();
        Result<const int*> value = cell.Get([&]() -> Result<int> {
          loads.fetch_add(1);
          return round;
        });
        if (value.ok()) seen[t] = *value;
      });
    }
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(loads.load(), 1);
    for (const int* value : seen) {
      ASSERT_NE(value, nullptr);
      EXPECT_EQ(value, seen[0]);
      EXPECT_EQ(*value, round);
    }
  }
}

}  // namespace
}  // namespace pyfileindex::sync
