package io.pyfileindex.harness;

import org.apache.paimon.CoreOptions;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fileindex.FileIndexOptions;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.io.DataFileIndexWriter;
import org.apache.paimon.options.Options;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.types.RowType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Produces file-index bytes exactly the way a Paimon data-file writer does: table options ->
 * CoreOptions.indexColumnsOptions() -> DataFileIndexWriter.create(...), every row through
 * write(), then close(). The bytes are taken from the result whether Paimon embedded them
 * (manifest) or wrote the sidecar `<data file>.index` (into a private temp dir).
 */
final class IndexWriting {

  private static final FileIO LOCAL = LocalFileIO.create();
  private static final AtomicLong FILE_COUNTER = new AtomicLong();
  private static final java.nio.file.Path SIDECAR_DIR = createSidecarDir();

  private IndexWriting() {}

  /** Table options in request order (they feed a HashMap, as a table's options do). */
  static Map<String, String> options(JsonNode options) {
    Map<String, String> map = new LinkedHashMap<>();
    if (options == null || options.isNull()) {
      return map;
    }
    if (!options.isObject()) {
      throw new HarnessException("'options' must be an object of string -> string");
    }
    Iterator<Map.Entry<String, JsonNode>> it = options.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getValue().isContainerNode() || e.getValue().isNull()) {
        throw new HarnessException("option '" + e.getKey() + "' must be a scalar");
      }
      map.put(e.getKey(), e.getValue().asText());
    }
    return map;
  }

  static FileIndexOptions fileIndexOptions(Map<String, String> tableOptions) {
    return new CoreOptions(Options.fromMap(tableOptions)).indexColumnsOptions();
  }

  /** Returns the container bytes, or null when the options declare no index at all. */
  static byte[] write(RowType rowType, List<InternalRow> rows, FileIndexOptions options) {
    java.nio.file.Path sidecar =
        SIDECAR_DIR.resolve("data-harness-" + FILE_COUNTER.incrementAndGet() + "-0.parquet.index");
    try {
      DataFileIndexWriter writer =
          DataFileIndexWriter.create(LOCAL, new Path(sidecar.toString()), rowType, options);
      if (writer == null) {
        return null;
      }
      for (InternalRow row : rows) {
        writer.write(row);
      }
      writer.close();
      DataFileIndexWriter.FileIndexResult result = writer.result();
      if (result.embeddedIndexBytes() != null) {
        return result.embeddedIndexBytes();
      }
      if (result.independentIndexFile() == null) {
        throw new HarnessException("DataFileIndexWriter reported neither bytes nor a file");
      }
      return Files.readAllBytes(sidecar);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      try {
        Files.deleteIfExists(sidecar);
      } catch (IOException ignored) {
        // a leftover temp file is harmless
      }
    }
  }

  private static java.nio.file.Path createSidecarDir() {
    try {
      java.nio.file.Path dir = Files.createTempDirectory("paimon-harness-");
      dir.toFile().deleteOnExit();
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
