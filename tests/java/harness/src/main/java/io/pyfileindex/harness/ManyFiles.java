package io.pyfileindex.harness;

import org.apache.paimon.fileindex.FileIndexPredicate;
import org.apache.paimon.fileindex.FileIndexResult;
import org.apache.paimon.fileindex.bitmap.BitmapIndexResult;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.types.RowType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;

/**
 * bench_files: one predicate planned over many index files, as a query plans a table's data
 * files: per file a FileIndexPredicate (embedded: over bytes held in memory, as a manifest
 * entry carries them; sidecar: over the index file, opened through LocalFileIO) + evaluate +
 * a materialized answer.
 *
 * <p>Request: fields, predicate, dir (files named 0.index .. count-1.index), count, mode
 * ("embedded" | "sidecar"), warmup_passes, passes. Each pass visits every file once and is
 * timed as a whole; the answer carries the median pass time per file (median_ns_per_file),
 * the fastest (min_ns_per_file), and what the files answered (skip / remain / rows files,
 * total_rows) so the two sides can be compared.
 */
final class ManyFiles {

  private static final FileIO LOCAL = LocalFileIO.create();

  private ManyFiles() {}

  static ObjectNode run(JsonNode request) {
    RowType rowType = Schema.rowType(request.get("fields"));
    Predicate predicate = Predicates.parse(rowType, Json.required(request, "predicate"));
    String dir = Json.requiredText(request, "dir");
    int count = Json.requiredInt(request, "count");
    String mode = Json.requiredText(request, "mode");
    int warmupPasses = Json.optionalInt(request, "warmup_passes", 1);
    int passes = Json.optionalInt(request, "passes", 3);
    if (count < 1 || passes < 1 || warmupPasses < 0) {
      throw new HarnessException("need count >= 1, passes >= 1 and warmup_passes >= 0");
    }
    boolean embedded;
    if (mode.equals("embedded")) {
      embedded = true;
    } else if (mode.equals("sidecar")) {
      embedded = false;
    } else {
      throw new HarnessException("mode must be 'embedded' or 'sidecar', got '" + mode + "'");
    }
    Path[] paths = new Path[count];
    byte[][] bytes = embedded ? new byte[count][] : null;
    for (int i = 0; i < count; i++) {
      java.nio.file.Path file = Paths.get(dir, i + ".index");
      paths[i] = new Path(file.toString());
      if (embedded) {
        try {
          bytes[i] = Files.readAllBytes(file);
        } catch (IOException e) {
          throw new HarnessException("cannot read index file '" + file + "': " + e);
        }
      }
    }
    long[] tally = new long[4];
    for (int pass = 0; pass < warmupPasses; pass++) {
      onePass(rowType, predicate, paths, bytes, tally);
    }
    long[] times = new long[passes];
    for (int pass = 0; pass < passes; pass++) {
      Arrays.fill(tally, 0);
      long start = System.nanoTime();
      onePass(rowType, predicate, paths, bytes, tally);
      times[pass] = System.nanoTime() - start;
    }
    Arrays.sort(times);
    ObjectNode out = Json.object();
    long median =
        passes % 2 == 1 ? times[passes / 2] : (times[passes / 2 - 1] + times[passes / 2]) / 2;
    out.put("median_ns_per_file", median / (double) count);
    out.put("min_ns_per_file", times[0] / (double) count);
    out.put("passes", passes);
    out.put("skip_files", tally[0]);
    out.put("remain_files", tally[1]);
    out.put("rows_files", tally[2]);
    out.put("total_rows", tally[3]);
    return out;
  }

  private static void onePass(
      RowType rowType, Predicate predicate, Path[] paths, byte[][] bytes, long[] tally) {
    for (int i = 0; i < paths.length; i++) {
      try (FileIndexPredicate index =
          bytes != null
              ? new FileIndexPredicate(bytes[i], rowType)
              : new FileIndexPredicate(paths[i], LOCAL, rowType)) {
        count(index.evaluate(predicate), tally);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static void count(FileIndexResult result, long[] tally) {
    if (result instanceof BitmapIndexResult) {
      long rows = ((BitmapIndexResult) result).get().getCardinality();
      if (rows == 0) {
        tally[0]++;
      } else {
        tally[2]++;
        tally[3] += rows;
      }
    } else if (result.remain()) {
      tally[1]++;
    } else {
      tally[0]++;
    }
  }
}
