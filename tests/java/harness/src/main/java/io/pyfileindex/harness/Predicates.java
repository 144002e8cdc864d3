package io.pyfileindex.harness;

import org.apache.paimon.predicate.In;
import org.apache.paimon.predicate.LeafPredicate;
import org.apache.paimon.predicate.NotIn;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;

import java.util.ArrayList;
import java.util.List;

/**
 * JSON predicate -> Paimon Predicate, built with PredicateBuilder as engines do.
 *
 * <p>Leaves: {"op": OP, "column": "f0", "literals": [...]}, OP one of eq ne lt le gt ge in
 * not_in is_null is_not_null between starts_with ends_with contains like is_nan.
 * Inner nodes: {"op": "and"|"or", "children": [...]} and {"op": "not", "child": {...}}
 * (Paimon's Predicate.negate()).
 *
 * <p>PredicateBuilder.in() gives an OR of equals for 1..20 literals and an In leaf otherwise;
 * notIn() is the negation of that (AND of not-equals, or a NotIn leaf). "form": "leaf" on an
 * in/not_in node forces the single In/NotIn leaf regardless of the count.
 */
final class Predicates {

  private Predicates() {}

  static Predicate parse(RowType rowType, JsonNode node) {
    if (node == null || !node.isObject()) {
      throw new HarnessException("a predicate must be an object");
    }
    String op = Json.requiredText(node, "op");
    switch (op) {
      case "and":
        return PredicateBuilder.and(children(rowType, node));
      case "or":
        return PredicateBuilder.or(children(rowType, node));
      case "not":
        return parse(rowType, Json.required(node, "child"))
            .negate()
            .orElseThrow(() -> new HarnessException("predicate cannot be negated"));
      default:
        return leaf(rowType, node, op);
    }
  }

  private static List<Predicate> children(RowType rowType, JsonNode node) {
    JsonNode children = Json.required(node, "children");
    if (!children.isArray() || children.size() == 0) {
      throw new HarnessException("'children' must be a non-empty list");
    }
    List<Predicate> out = new ArrayList<>();
    for (JsonNode child : children) {
      out.add(parse(rowType, child));
    }
    return out;
  }

  private static Predicate leaf(RowType rowType, JsonNode node, String op) {
    String column = Json.requiredText(node, "column");
    rowType = withMapKeyField(rowType, column);
    int index = Schema.fieldIndex(rowType, column);
    DataField field = rowType.getFields().get(index);
    List<Object> literals = literals(field, node);
    PredicateBuilder builder = new PredicateBuilder(rowType);
    switch (op) {
      case "eq":
        return builder.equal(index, one(op, literals));
      case "ne":
        return builder.notEqual(index, one(op, literals));
      case "lt":
        return builder.lessThan(index, one(op, literals));
      case "le":
        return builder.lessOrEqual(index, one(op, literals));
      case "gt":
        return builder.greaterThan(index, one(op, literals));
      case "ge":
        return builder.greaterOrEqual(index, one(op, literals));
      case "is_null":
        none(op, literals);
        return builder.isNull(index);
      case "is_not_null":
        none(op, literals);
        return builder.isNotNull(index);
      case "is_nan":
        none(op, literals);
        return builder.isNaN(index);
      case "starts_with":
        return builder.startsWith(index, one(op, literals));
      case "ends_with":
        return builder.endsWith(index, one(op, literals));
      case "contains":
        return builder.contains(index, one(op, literals));
      case "like":
        return builder.like(index, one(op, literals));
      case "between":
        if (literals.size() != 2) {
          throw new HarnessException("between needs exactly 2 literals");
        }
        return builder.between(index, literals.get(0), literals.get(1));
      case "in":
        return forcedLeaf(node)
            ? new LeafPredicate(In.INSTANCE, field.type(), index, field.name(), literals)
            : builder.in(index, literals);
      case "not_in":
        return forcedLeaf(node)
            ? new LeafPredicate(NotIn.INSTANCE, field.type(), index, field.name(), literals)
            : builder.notIn(index, literals);
      default:
        throw new HarnessException("unknown predicate op '" + op + "'");
    }
  }

  /**
   * A column "m[k]" names the values of key k of MAP column m, the name under which Paimon
   * stores a map-key index in the container. FileIndexPredicate finds index readers by the
   * leaf's field name, so the leaf is built on a row type whose field m is renamed "m[k]" and
   * typed as the map's value type.
   */
  private static RowType withMapKeyField(RowType rowType, String column) {
    int open = column.indexOf('[');
    if (rowType.getFieldIndex(column) >= 0 || open <= 0 || !column.endsWith("]")) {
      return rowType;
    }
    int index = rowType.getFieldIndex(column.substring(0, open));
    if (index < 0 || !(rowType.getTypeAt(index) instanceof MapType)) {
      return rowType;
    }
    List<DataField> fields = new ArrayList<>(rowType.getFields());
    DataField map = fields.get(index);
    DataType valueType = ((MapType) map.type()).getValueType();
    fields.set(index, new DataField(map.id(), column, valueType));
    return new RowType(fields);
  }

  private static boolean forcedLeaf(JsonNode node) {
    JsonNode form = node.get("form");
    if (form == null || form.isNull()) {
      return false;
    }
    if (!"leaf".equals(form.asText())) {
      throw new HarnessException("unknown form '" + form.asText() + "' (only \"leaf\")");
    }
    return true;
  }

  private static List<Object> literals(DataField field, JsonNode node) {
    List<Object> out = new ArrayList<>();
    JsonNode literals = node.get("literals");
    if (literals == null || literals.isNull()) {
      return out;
    }
    if (!literals.isArray()) {
      throw new HarnessException("'literals' must be a list");
    }
    for (JsonNode literal : literals) {
      out.add(Values.toInternal(field.type(), literal));
    }
    return out;
  }

  private static Object one(String op, List<Object> literals) {
    if (literals.size() != 1) {
      throw new HarnessException(op + " needs exactly 1 literal, got " + literals.size());
    }
    return literals.get(0);
  }

  private static void none(String op, List<Object> literals) {
    if (!literals.isEmpty()) {
      throw new HarnessException(op + " takes no literals");
    }
  }
}
