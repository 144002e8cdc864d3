package io.pyfileindex.harness;

import org.apache.paimon.fileindex.FileIndexPredicate;
import org.apache.paimon.fileindex.FileIndexResult;
import org.apache.paimon.fileindex.bitmap.BitmapIndexResult;
import org.apache.paimon.predicate.FieldRef;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.SortValue;
import org.apache.paimon.predicate.TopN;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.RoaringBitmap32;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Asks Paimon's own reader side (FileIndexPredicate over the container bytes) for answers.
 * An answer is {"result":"SKIP"}, {"result":"REMAIN"} or {"result":"ROWS","rows":[...]} (the
 * FileIndexResult was a BitmapIndexResult; rows ascending, possibly empty).
 */
final class IndexReading {

  private IndexReading() {}

  static FileIndexResult evaluate(byte[] container, RowType rowType, Predicate predicate) {
    // A fresh FileIndexPredicate per question, as each data file gets its own; header errors
    // (bad magic, bad version) therefore surface per question.
    try (FileIndexPredicate fileIndex = new FileIndexPredicate(container, rowType)) {
      return fileIndex.evaluate(predicate);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * TopN through FileIndexPredicate.evaluateTopN, the path the read-time FileIndexEvaluator
   * uses. selection null -> input REMAIN; else a BitmapIndexResult of those rows (Paimon's
   * evaluator passes "all rows minus deleted rows" here). "with_ties": true asks for Paimon's
   * non-strict TopN, which it uses when more sort keys follow the column: the TopN gets a second
   * sort key (the same column again; the index only looks at the first key and the count).
   */
  static FileIndexResult topN(
      byte[] container, RowType rowType, JsonNode request) {
    String column = Json.requiredText(request, "column");
    int index = Schema.fieldIndex(rowType, column);
    DataField field = rowType.getFields().get(index);
    SortValue order =
        new SortValue(
            new FieldRef(index, field.name(), field.type()),
            Json.optionalBoolean(request, "descending", false)
                ? SortValue.SortDirection.DESCENDING
                : SortValue.SortDirection.ASCENDING,
            Json.optionalBoolean(request, "nulls_first", false)
                ? SortValue.NullOrdering.NULLS_FIRST
                : SortValue.NullOrdering.NULLS_LAST);
    List<SortValue> orders =
        Json.optionalBoolean(request, "with_ties", false)
            ? Arrays.asList(order, order)
            : Collections.singletonList(order);
    TopN topN = new TopN(orders, Json.requiredInt(request, "limit"));
    FileIndexResult input = selection(request.get("selection"));
    try (FileIndexPredicate fileIndex = new FileIndexPredicate(container, rowType)) {
      return fileIndex.evaluateTopN(topN, input);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static FileIndexResult selection(JsonNode selection) {
    if (selection == null || selection.isNull()) {
      return FileIndexResult.REMAIN;
    }
    if (!selection.isArray()) {
      throw new HarnessException("'selection' must be a list of row ids or null");
    }
    RoaringBitmap32 rows = new RoaringBitmap32();
    for (JsonNode row : selection) {
      if (!row.isIntegralNumber() || !row.canConvertToInt() || row.intValue() < 0) {
        throw new HarnessException("selection row ids must be non-negative 32-bit integers");
      }
      rows.add(row.intValue());
    }
    return new BitmapIndexResult(() -> rows);
  }

  /** Forces a lazy answer, so timing and error reporting include the real work. */
  static void materialize(FileIndexResult result) {
    if (result instanceof BitmapIndexResult) {
      ((BitmapIndexResult) result).get().getCardinality();
    } else {
      result.remain();
    }
  }

  static ObjectNode answer(FileIndexResult result) {
    ObjectNode out = Json.object();
    if (result instanceof BitmapIndexResult) {
      out.put("result", "ROWS");
      ArrayNode rows = out.putArray("rows");
      RoaringBitmap32 bitmap = ((BitmapIndexResult) result).get();
      bitmap.iterator().forEachRemaining(rows::add);
    } else {
      out.put("result", result.remain() ? "REMAIN" : "SKIP");
    }
    return out;
  }

  static ObjectNode error(Throwable t) {
    ObjectNode out = Json.object();
    out.put("error", Main.describe(t));
    return out;
  }
}
