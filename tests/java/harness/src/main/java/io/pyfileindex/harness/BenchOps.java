package io.pyfileindex.harness;

import org.apache.paimon.data.columnar.ColumnarRow;
import org.apache.paimon.fileindex.FileIndexOptions;
import org.apache.paimon.fileindex.FileIndexPredicate;
import org.apache.paimon.fileindex.FileIndexResult;
import org.apache.paimon.fileindex.bitmap.BitmapIndexResult;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.io.DataFileIndexWriter;
import org.apache.paimon.predicate.FieldRef;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.SortValue;
import org.apache.paimon.predicate.TopN;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Benchmark ops over big inputs that travel as files, not JSON (benchmarks/compare.py):
 *
 * <ul>
 *   <li>bench_build: DataFileIndexWriter over a column dump (see ColumnDump), rows fed through
 *       one ColumnarRow cursor; times create + write every row + close, and close alone.
 *       Optional: warmup_rows (warm-up runs index only a prefix), budget_ms (no further timed
 *       run once that much time has passed), out (file for the index bytes).
 *   <li>bench_open: new FileIndexPredicate(bytes, rowType) + close.
 *   <li>bench_query: FileIndexPredicate construction + evaluate + materialized answer (the
 *       same work as bench_read), container bytes read from a file.
 *   <li>bench_topn: FileIndexPredicate construction + evaluateTopN(topN, REMAIN) + materialized.
 * </ul>
 *
 * Timing: W untimed warm-up runs, then runs timed one by one with System.nanoTime (builds: a
 * fixed count; the others: see measure). Answers carry median_ns, min_ns and runs.
 */
final class BenchOps {

  private static final FileIO LOCAL = LocalFileIO.create();

  private BenchOps() {}

  static ObjectNode build(JsonNode request) {
    RowType rowType = singleColumn(request);
    ColumnDump column =
        ColumnDump.load(Json.requiredText(request, "column_file"), rowType.getTypeAt(0));
    Map<String, String> options = IndexWriting.options(request.get("options"));
    // Timed runs keep the bytes inline: no sidecar file I/O is measured.
    options.put("file-index.in-manifest-threshold", "1 tb");
    FileIndexOptions indexOptions = IndexWriting.fileIndexOptions(options);
    Path unusedSidecar = new Path(Paths.get(System.getProperty("java.io.tmpdir"),
        "pyfileindex-bench-unused.index").toString());

    int repeat = Json.requiredInt(request, "repeat");
    int warmup = Json.optionalInt(request, "warmup", 1);
    // Warm-up runs may index only a prefix: the JIT warms as well on 1M rows as on 10M.
    int warmupRows = Math.min(column.rowCount,
        Json.optionalInt(request, "warmup_rows", column.rowCount));
    // Timed runs stop once this much time went by (at least one run): some Java builds take
    // minutes on 10M rows.
    long budgetNanos = Json.optionalInt(request, "budget_ms", 0) * 1_000_000L;
    if (repeat < 1 || warmup < 0 || warmupRows < 0) {
      throw new HarnessException("need repeat >= 1, warmup >= 0 and warmup_rows >= 0");
    }
    for (int run = 0; run < warmup; run++) {
      buildOnce(rowType, indexOptions, unusedSidecar, column, warmupRows);
    }
    long[] totals = new long[repeat];
    long[] closes = new long[repeat];
    int runs = 0;
    byte[] bytes = null;
    long began = System.nanoTime();
    while (runs < repeat) {
      long start = System.nanoTime();
      Built built = buildOnce(rowType, indexOptions, unusedSidecar, column, column.rowCount);
      long end = System.nanoTime();
      bytes = built.bytes;
      totals[runs] = end - start;
      closes[runs] = built.closeNanos;
      runs++;
      if (budgetNanos > 0 && end - began >= budgetNanos) {
        break;
      }
    }
    ObjectNode out = timing(Arrays.copyOf(totals, runs));
    out.put("close_median_ns", median(Arrays.copyOf(closes, runs)));
    out.put("rows", column.rowCount);
    out.put("size", bytes.length);
    String target = request.path("out").asText(null);
    if (target != null) {
      try {
        Files.write(Paths.get(target), bytes);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  private static final class Built {
    final byte[] bytes;
    final long closeNanos;

    Built(byte[] bytes, long closeNanos) {
      this.bytes = bytes;
      this.closeNanos = closeNanos;
    }
  }

  /** create + write rows [0, rows) through one ColumnarRow cursor + close. */
  private static Built buildOnce(
      RowType rowType, FileIndexOptions options, Path sidecar, ColumnDump column, int rows) {
    DataFileIndexWriter writer = DataFileIndexWriter.create(LOCAL, sidecar, rowType, options);
    if (writer == null) {
      throw new HarnessException("the options declare no file index; nothing to time");
    }
    ColumnarRow row = column.cursor();
    for (int i = 0; i < rows; i++) {
      row.setRowId(i);
      writer.write(row);
    }
    long written = System.nanoTime();
    try {
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byte[] bytes = writer.result().embeddedIndexBytes();
    return new Built(bytes, System.nanoTime() - written);
  }

  static ObjectNode open(JsonNode request) {
    byte[] container = container(request);
    RowType rowType = Schema.rowType(request.get("fields"));
    long[] times =
        measure(
            request,
            () -> {
              try (FileIndexPredicate index = new FileIndexPredicate(container, rowType)) {
                return index.hashCode();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    return timing(times);
  }

  static ObjectNode query(JsonNode request) {
    byte[] container = container(request);
    RowType rowType = Schema.rowType(request.get("fields"));
    Predicate predicate = Predicates.parse(rowType, Json.required(request, "predicate"));
    long[] times =
        measure(
            request,
            () -> summary(IndexReading.evaluate(container, rowType, predicate)));
    ObjectNode out = timing(times);
    describe(out, IndexReading.evaluate(container, rowType, predicate));
    return out;
  }

  static ObjectNode topN(JsonNode request) {
    byte[] container = container(request);
    RowType rowType = Schema.rowType(request.get("fields"));
    int index = Schema.fieldIndex(rowType, Json.requiredText(request, "column"));
    DataField field = rowType.getFields().get(index);
    TopN topN =
        new TopN(
            new FieldRef(index, field.name(), field.type()),
            Json.optionalBoolean(request, "descending", false)
                ? SortValue.SortDirection.DESCENDING
                : SortValue.SortDirection.ASCENDING,
            Json.optionalBoolean(request, "nulls_first", false)
                ? SortValue.NullOrdering.NULLS_FIRST
                : SortValue.NullOrdering.NULLS_LAST,
            Json.requiredInt(request, "limit"));
    long[] times = measure(request, () -> summary(evaluateTopN(container, rowType, topN)));
    ObjectNode out = timing(times);
    describe(out, evaluateTopN(container, rowType, topN));
    return out;
  }

  private static FileIndexResult evaluateTopN(byte[] container, RowType rowType, TopN topN) {
    try (FileIndexPredicate index = new FileIndexPredicate(container, rowType)) {
      return index.evaluateTopN(topN, FileIndexResult.REMAIN);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Forces a lazy answer; the value depends on the work so the JIT cannot drop it. */
  private static long summary(FileIndexResult result) {
    if (result instanceof BitmapIndexResult) {
      return ((BitmapIndexResult) result).get().getCardinality();
    }
    return result.remain() ? -1 : -2;
  }

  private static void describe(ObjectNode out, FileIndexResult result) {
    if (result instanceof BitmapIndexResult) {
      out.put("result", "ROWS");
      out.put("cardinality", ((BitmapIndexResult) result).get().getCardinality());
    } else {
      out.put("result", result.remain() ? "REMAIN" : "SKIP");
    }
  }

  private static RowType singleColumn(JsonNode request) {
    RowType rowType = Schema.rowType(request.get("fields"));
    if (rowType.getFieldCount() != 1) {
      throw new HarnessException("bench_build takes exactly one field (one column dump)");
    }
    return rowType;
  }

  private static byte[] container(JsonNode request) {
    String file = Json.requiredText(request, "bytes_file");
    try {
      return Files.readAllBytes(Paths.get(file));
    } catch (IOException e) {
      throw new HarnessException("cannot read container bytes '" + file + "': " + e);
    }
  }

  /**
   * Untimed warm-up runs until at least `warmup` runs and `warmup_ms` have passed, then runs
   * timed one by one until at least `repeat` runs and `budget_ms` have passed, or `max_runs`
   * runs (benchmarks/timing.py does the same).
   */
  private static long[] measure(JsonNode request, LongSupplier run) {
    int repeat = Json.requiredInt(request, "repeat");
    int warmup = Json.optionalInt(request, "warmup", repeat);
    long budgetNanos = Json.optionalInt(request, "budget_ms", 0) * 1_000_000L;
    int maxRuns = Json.optionalInt(request, "max_runs", repeat);
    if (repeat < 1 || warmup < 0 || maxRuns < repeat) {
      throw new HarnessException("need repeat >= 1, warmup >= 0 and max_runs >= repeat");
    }
    long warmupNanos = Json.optionalInt(request, "warmup_ms", 0) * 1_000_000L;
    long sink = 0;
    long warmupEnd = System.nanoTime() + warmupNanos;
    for (int i = 0; i < warmup || System.nanoTime() - warmupEnd < 0; i++) {
      sink += run.getAsLong();
    }
    long[] times = new long[maxRuns];
    int runs = 0;
    long deadline = System.nanoTime() + budgetNanos;
    while (true) {
      long start = System.nanoTime();
      sink += run.getAsLong();
      long end = System.nanoTime();
      times[runs++] = end - start;
      if (runs >= maxRuns || (runs >= repeat && end - deadline >= 0)) {
        break;
      }
    }
    if (sink == 42) {
      System.err.print(""); // keeps `sink` alive
    }
    return Arrays.copyOf(times, runs);
  }

  private static ObjectNode timing(long[] times) {
    ObjectNode out = Json.object();
    out.put("median_ns", median(times));
    out.put("min_ns", Arrays.stream(times).min().getAsLong());
    out.put("runs", times.length);
    return out;
  }

  private static long median(long[] times) {
    long[] sorted = times.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
