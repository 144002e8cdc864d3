package io.pyfileindex.harness;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.MapType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * JSON value -> Paimon internal value for one column type. The encoding is documented at the
 * top of tests/java_harness.py; keep both in step.
 */
final class Values {

  private static final long NANOS_PER_MILLI = 1_000_000L;

  private Values() {}

  static Object toInternal(DataType type, JsonNode v) {
    if (v == null || v.isNull()) {
      return null;
    }
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        if (!v.isBoolean()) {
          throw bad(type, v, "expected true/false");
        }
        return v.booleanValue();
      case TINYINT:
        return (byte) integral(type, v, Byte.MIN_VALUE, Byte.MAX_VALUE);
      case SMALLINT:
        return (short) integral(type, v, Short.MIN_VALUE, Short.MAX_VALUE);
      case INTEGER:
      case DATE: // days since 1970-01-01
      case TIME_WITHOUT_TIME_ZONE: // milliseconds of the day
        return (int) integral(type, v, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case BIGINT:
        return integral(type, v, Long.MIN_VALUE, Long.MAX_VALUE);
      case FLOAT:
        return floatValue(type, v);
      case DOUBLE:
        return doubleValue(type, v);
      case DECIMAL:
        return decimal((DecimalType) type, v);
      case CHAR:
      case VARCHAR:
        return BinaryString.fromBytes(stringBytes(type, v));
      case BINARY:
      case VARBINARY:
        return Json.base64(v, "value for " + type);
      case TIMESTAMP_WITHOUT_TIME_ZONE:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return timestampFromEpochNanos(integral(type, v, Long.MIN_VALUE, Long.MAX_VALUE));
      case ARRAY:
        return array((ArrayType) type, v);
      case MAP:
        return map((MapType) type, v);
      default:
        throw new HarnessException("type " + type + " is not supported by the harness");
    }
  }

  /** Epoch nanoseconds -> (millis, nano-of-milli) with floor division, as Paimon stores it. */
  static Timestamp timestampFromEpochNanos(long nanos) {
    long millis = Math.floorDiv(nanos, NANOS_PER_MILLI);
    int nanoOfMilli = (int) Math.floorMod(nanos, NANOS_PER_MILLI);
    return Timestamp.fromEpochMillis(millis, nanoOfMilli);
  }

  private static long integral(DataType type, JsonNode v, long min, long max) {
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw bad(type, v, "expected an integer");
    }
    long value = v.longValue();
    if (value < min || value > max) {
      throw bad(type, v, "out of range");
    }
    return value;
  }

  private static double doubleValue(DataType type, JsonNode v) {
    if (v.isObject() && v.has("bits")) {
      return Double.longBitsToDouble(Long.parseUnsignedLong(bitsText(type, v), 16));
    }
    if (v.isTextual()) {
      return Double.parseDouble(floatText(type, v));
    }
    if (v.isIntegralNumber()) {
      return v.bigIntegerValue().doubleValue(); // correctly rounded, also past 2^53
    }
    if (v.isNumber()) {
      return v.doubleValue();
    }
    throw bad(type, v, "expected a number or a float string");
  }

  private static float floatValue(DataType type, JsonNode v) {
    if (v.isObject() && v.has("bits")) {
      return Float.intBitsToFloat(Integer.parseUnsignedInt(bitsText(type, v), 16));
    }
    if (v.isTextual()) {
      return Float.parseFloat(floatText(type, v)); // one rounding, straight to float32
    }
    if (v.isIntegralNumber()) {
      return v.bigIntegerValue().floatValue();
    }
    if (v.isNumber()) {
      return (float) v.doubleValue(); // the client holds a double; round that to float32
    }
    throw bad(type, v, "expected a number or a float string");
  }

  /** {"bits": "7fa00001"}: the IEEE 754 bit pattern in hex (NaN payloads, signalling NaNs). */
  private static String bitsText(DataType type, JsonNode v) {
    JsonNode bits = v.get("bits");
    if (!bits.isTextual() || !bits.textValue().matches("[0-9a-fA-F]{1,16}")) {
      throw bad(type, v, "\"bits\" must be a hex string");
    }
    return bits.textValue();
  }

  /** Accepts Java's spellings and Python's repr spellings of the special values. */
  private static String floatText(DataType type, JsonNode v) {
    String text = v.textValue().trim();
    switch (text.toLowerCase()) {
      case "nan":
        return "NaN";
      case "inf":
      case "+inf":
      case "infinity":
      case "+infinity":
        return "Infinity";
      case "-inf":
      case "-infinity":
        return "-Infinity";
      default:
        // Double.parseDouble would also accept hex floats and a trailing 'd'/'f'; fine.
        if (text.isEmpty()) {
          throw bad(type, v, "empty float string");
        }
        return text;
    }
  }

  private static Decimal decimal(DecimalType type, JsonNode v) {
    BigDecimal value;
    try {
      value = v.isTextual() ? new BigDecimal(v.textValue().trim()) : new BigDecimal(v.asText());
    } catch (NumberFormatException e) {
      throw bad(type, v, "expected a decimal string like \"123.45\"");
    }
    try {
      // The harness never rounds: a literal must fit the column's scale exactly.
      value = value.setScale(type.getScale(), java.math.RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw bad(type, v, "more fraction digits than scale " + type.getScale());
    }
    Decimal decimal = Decimal.fromBigDecimal(value, type.getPrecision(), type.getScale());
    if (decimal == null) {
      throw bad(type, v, "does not fit precision " + type.getPrecision());
    }
    return decimal;
  }

  /** A JSON string is UTF-8 encoded exactly (U+0000 stays one 0x00 byte); {"base64": ...} is raw. */
  private static byte[] stringBytes(DataType type, JsonNode v) {
    if (v.isTextual()) {
      return v.textValue().getBytes(StandardCharsets.UTF_8);
    }
    if (v.isObject() && v.has("base64")) {
      return Json.base64(v.get("base64"), "raw string bytes");
    }
    throw bad(type, v, "expected a string or {\"base64\": ...}");
  }

  private static GenericArray array(ArrayType type, JsonNode v) {
    if (!v.isArray()) {
      throw bad(type, v, "expected a list");
    }
    Object[] elements = new Object[v.size()];
    for (int i = 0; i < elements.length; i++) {
      elements[i] = toInternal(type.getElementType(), v.get(i));
    }
    return new GenericArray(elements);
  }

  /** A map is a JSON object or a list of [key, value] pairs; entry order is kept. */
  private static GenericMap map(MapType type, JsonNode v) {
    Map<Object, Object> entries = new LinkedHashMap<>();
    if (v.isObject()) {
      Iterator<Map.Entry<String, JsonNode>> it = v.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        entries.put(
            toInternal(type.getKeyType(), Json.MAPPER.getNodeFactory().textNode(e.getKey())),
            toInternal(type.getValueType(), e.getValue()));
      }
    } else if (v.isArray()) {
      for (JsonNode pair : v) {
        if (!pair.isArray() || pair.size() != 2) {
          throw bad(type, v, "map entries must be [key, value] pairs");
        }
        entries.put(
            toInternal(type.getKeyType(), pair.get(0)),
            toInternal(type.getValueType(), pair.get(1)));
      }
    } else {
      throw bad(type, v, "expected an object or a list of [key, value] pairs");
    }
    return new GenericMap(entries);
  }

  private static HarnessException bad(DataType type, JsonNode v, String why) {
    String shown = v.toString();
    if (shown.length() > 80) {
      shown = shown.substring(0, 80) + "...";
    }
    return new HarnessException("bad value " + shown + " for type " + type + ": " + why);
  }
}
