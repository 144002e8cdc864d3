package io.pyfileindex.harness;

import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.RowType;

import java.util.ArrayList;
import java.util.List;

/** Turns the request's "fields" list into a Paimon RowType, using Paimon's own type parser. */
final class Schema {

  private Schema() {}

  /**
   * fields: [{"name": "f0", "type": "STRING"}, ...]. "type" is a Paimon type string as in
   * schema files ("INT", "BIGINT NOT NULL", "DECIMAL(10, 2)", "TIMESTAMP(6) WITH LOCAL TIME
   * ZONE", ...) or a JSON type object as schema files write complex types. Field ids are the
   * positions (0, 1, ...) unless an "id" is given.
   */
  static RowType rowType(JsonNode fields) {
    if (fields == null || !fields.isArray() || fields.size() == 0) {
      throw new HarnessException("'fields' must be a non-empty list");
    }
    List<DataField> dataFields = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      JsonNode field = fields.get(i);
      String name = Json.requiredText(field, "name");
      int id = Json.optionalInt(field, "id", i);
      dataFields.add(new DataField(id, name, dataType(Json.required(field, "type"))));
    }
    return new RowType(dataFields);
  }

  static DataType dataType(JsonNode type) {
    try {
      if (type.isTextual()) {
        return DataTypeJsonParser.parseAtomicTypeSQLString(type.textValue());
      }
      return DataTypeJsonParser.parseDataType(type);
    } catch (RuntimeException e) {
      throw new HarnessException("cannot parse type " + type + ": " + e.getMessage(), e);
    }
  }

  static int fieldIndex(RowType rowType, String column) {
    int index = rowType.getFieldIndex(column);
    if (index < 0) {
      throw new HarnessException("unknown column '" + column + "'");
    }
    return index;
  }
}
