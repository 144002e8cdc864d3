package io.pyfileindex.harness;

import org.apache.paimon.data.columnar.ColumnVector;
import org.apache.paimon.data.columnar.ColumnarRow;
import org.apache.paimon.data.columnar.VectorizedColumnBatch;
import org.apache.paimon.data.columnar.heap.AbstractHeapVector;
import org.apache.paimon.data.columnar.heap.HeapBytesVector;
import org.apache.paimon.data.columnar.heap.HeapDoubleVector;
import org.apache.paimon.data.columnar.heap.HeapIntVector;
import org.apache.paimon.data.columnar.heap.HeapLongVector;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeRoot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * One benchmark column read from a little-endian binary dump (written by
 * benchmarks/column_dump.py), held in Paimon's heap column vectors and served row by row
 * through a ColumnarRow: the row shape Paimon's own format readers hand to a writer when a
 * file is rewritten. No per-row objects are kept; Paimon's field getter boxes each value
 * (or wraps each string) on access, as it does in a real write.
 *
 * <p>Layout: magic "PFIBCOL1"; int32 kind (1 INT, 2 BIGINT, 3 DOUBLE, 4 STRING); int64 row
 * count n; int32 has-nulls flag, then n null bytes (1 = null) when set; values: n int32 /
 * int64 / float64, or for STRING n + 1 int32 offsets followed by offsets[n] UTF-8 bytes.
 */
final class ColumnDump {

  static final byte[] MAGIC = "PFIBCOL1".getBytes(StandardCharsets.US_ASCII);

  private static String cachedPath;
  private static long cachedModified;
  private static ColumnDump cached;

  final int rowCount;
  final DataTypeRoot root;
  private final VectorizedColumnBatch batch;

  private ColumnDump(int rowCount, DataTypeRoot root, ColumnVector vector) {
    this.rowCount = rowCount;
    this.root = root;
    this.batch = new VectorizedColumnBatch(new ColumnVector[] {vector});
    batch.setNumRows(rowCount);
  }

  /** A fresh cursor row over the column (call setRowId before each read). */
  ColumnarRow cursor() {
    return new ColumnarRow(batch);
  }

  /** Loads a dump, reusing the last one when the same unchanged file is asked for again. */
  static synchronized ColumnDump load(String file, DataType type) {
    Path path = Paths.get(file);
    long modified;
    try {
      modified = java.nio.file.Files.getLastModifiedTime(path).toMillis();
    } catch (IOException e) {
      throw new HarnessException("cannot read column dump '" + file + "': " + e);
    }
    if (cached == null || !file.equals(cachedPath) || modified != cachedModified) {
      cached = null; // let the old column go before the new one is read
      cached = read(path);
      cachedPath = file;
      cachedModified = modified;
    }
    if (cached.root != type.getTypeRoot() && !(isString(cached.root) && isString(type))) {
      throw new HarnessException(
          "column dump holds " + cached.root + " values, the field is " + type);
    }
    return cached;
  }

  private static boolean isString(DataTypeRoot root) {
    return root == DataTypeRoot.VARCHAR || root == DataTypeRoot.CHAR;
  }

  private static boolean isString(DataType type) {
    return isString(type.getTypeRoot());
  }

  private static ColumnDump read(Path path) {
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      if (channel.size() > Integer.MAX_VALUE) {
        throw new HarnessException("column dump larger than 2 GiB: " + path);
      }
      ByteBuffer in = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
      in.order(ByteOrder.LITTLE_ENDIAN);
      return parse(in, path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException e) {
      throw new HarnessException("column dump is truncated or corrupt: " + path);
    }
  }

  private static ColumnDump parse(ByteBuffer in, Path path) {
    byte[] magic = new byte[MAGIC.length];
    in.get(magic);
    if (!java.util.Arrays.equals(magic, MAGIC)) {
      throw new HarnessException("not a column dump (bad magic): " + path);
    }
    int kind = in.getInt();
    long count = in.getLong();
    if (count < 0 || count > Integer.MAX_VALUE - 8) {
      throw new HarnessException("bad row count " + count + " in " + path);
    }
    int n = (int) count;
    boolean[] nulls = null;
    if (in.getInt() != 0) {
      nulls = new boolean[n];
      for (int i = 0; i < n; i++) {
        nulls[i] = in.get() != 0;
      }
    }
    AbstractHeapVector vector;
    DataTypeRoot root;
    switch (kind) {
      case 1:
        HeapIntVector ints = new HeapIntVector(n);
        in.asIntBuffer().get(ints.vector, 0, n);
        vector = ints;
        root = DataTypeRoot.INTEGER;
        break;
      case 2:
        HeapLongVector longs = new HeapLongVector(n);
        in.asLongBuffer().get(longs.vector, 0, n);
        vector = longs;
        root = DataTypeRoot.BIGINT;
        break;
      case 3:
        HeapDoubleVector doubles = new HeapDoubleVector(n);
        in.asDoubleBuffer().get(doubles.vector, 0, n);
        vector = doubles;
        root = DataTypeRoot.DOUBLE;
        break;
      case 4:
        vector = strings(in, n, path);
        root = DataTypeRoot.VARCHAR;
        break;
      default:
        throw new HarnessException("unknown column kind " + kind + " in " + path);
    }
    if (nulls != null) {
      for (int i = 0; i < n; i++) {
        if (nulls[i]) {
          vector.setNullAt(i);
        }
      }
    }
    return new ColumnDump(n, root, vector);
  }

  private static HeapBytesVector strings(ByteBuffer in, int n, Path path) {
    int[] offsets = new int[n + 1];
    in.asIntBuffer().get(offsets);
    in.position(in.position() + 4 * (n + 1));
    int total = offsets[n];
    if (offsets[0] != 0 || total < 0 || total > in.remaining()) {
      throw new HarnessException("bad string offsets in " + path);
    }
    // The vector's public fields take the dump's bytes and offsets as they are.
    HeapBytesVector strings = new HeapBytesVector(n);
    strings.buffer = new byte[total];
    in.get(strings.buffer);
    for (int i = 0; i < n; i++) {
      int length = offsets[i + 1] - offsets[i];
      if (length < 0) {
        throw new HarnessException("bad string offsets in " + path);
      }
      strings.start[i] = offsets[i];
      strings.length[i] = length;
    }
    return strings;
  }
}
