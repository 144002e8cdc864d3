package io.pyfileindex.harness;

import java.util.Arrays;
import java.util.function.LongSupplier;

/** In-JVM timing: warm the JIT with untimed runs, then time each run with System.nanoTime. */
final class Bench {

  final long medianNanos;
  final long minNanos;
  final int runs;

  private Bench(long medianNanos, long minNanos, int runs) {
    this.medianNanos = medianNanos;
    this.minNanos = minNanos;
    this.runs = runs;
  }

  /** run returns a value that depends on the work, so the JIT cannot drop it. */
  static Bench measure(int warmup, int repeat, LongSupplier run) {
    if (repeat < 1 || warmup < 0) {
      throw new HarnessException("need repeat >= 1 and warmup >= 0");
    }
    long sink = 0;
    for (int i = 0; i < warmup; i++) {
      sink += run.getAsLong();
    }
    long[] times = new long[repeat];
    for (int i = 0; i < repeat; i++) {
      long start = System.nanoTime();
      sink += run.getAsLong();
      times[i] = System.nanoTime() - start;
    }
    if (sink == 42) {
      System.err.print(""); // keeps `sink` alive
    }
    Arrays.sort(times);
    long median =
        repeat % 2 == 1 ? times[repeat / 2] : (times[repeat / 2 - 1] + times[repeat / 2]) / 2;
    return new Bench(median, times[0], repeat);
  }
}
