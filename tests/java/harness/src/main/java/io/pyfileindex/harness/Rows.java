package io.pyfileindex.harness;

import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.types.RowType;

import java.util.ArrayList;
import java.util.List;

/** Builds the rows a data-file writer would see, from column-wise JSON values. */
final class Rows {

  private Rows() {}

  /** columns: {"f0": [v0, v1, ...], ...}; every field needs a column, all of one length. */
  static List<InternalRow> fromColumns(RowType rowType, JsonNode columns) {
    if (columns == null || !columns.isObject()) {
      throw new HarnessException("'columns' must be an object of column name -> list of values");
    }
    int fieldCount = rowType.getFieldCount();
    JsonNode[] values = new JsonNode[fieldCount];
    int rowCount = -1;
    for (int f = 0; f < fieldCount; f++) {
      String name = rowType.getFields().get(f).name();
      JsonNode column = columns.get(name);
      if (column == null || !column.isArray()) {
        throw new HarnessException("column '" + name + "' missing or not a list");
      }
      if (rowCount >= 0 && column.size() != rowCount) {
        throw new HarnessException(
            "column '" + name + "' has " + column.size() + " values, expected " + rowCount);
      }
      rowCount = column.size();
      values[f] = column;
    }
    columns.fieldNames().forEachRemaining(name -> {
      if (rowType.getFieldIndex(name) < 0) {
        throw new HarnessException("column '" + name + "' is not among the fields");
      }
    });

    List<InternalRow> rows = new ArrayList<>(rowCount);
    for (int r = 0; r < rowCount; r++) {
      GenericRow row = new GenericRow(fieldCount);
      for (int f = 0; f < fieldCount; f++) {
        row.setField(f, Values.toInternal(rowType.getTypeAt(f), values[f].get(r)));
      }
      rows.add(row);
    }
    return rows;
  }
}
