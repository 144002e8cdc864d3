package io.pyfileindex.harness;

import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Base64;

/** JSON helpers over the Jackson copy that Paimon itself ships (shaded), so no extra jar. */
final class Json {

  static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  static ArrayNode array() {
    return MAPPER.createArrayNode();
  }

  /** A required member; a missing or null member is a request error. */
  static JsonNode required(JsonNode parent, String name) {
    JsonNode node = parent.get(name);
    if (node == null || node.isNull()) {
      throw new HarnessException("missing field '" + name + "'");
    }
    return node;
  }

  static String requiredText(JsonNode parent, String name) {
    JsonNode node = required(parent, name);
    if (!node.isTextual()) {
      throw new HarnessException("field '" + name + "' must be a string");
    }
    return node.textValue();
  }

  static int requiredInt(JsonNode parent, String name) {
    JsonNode node = required(parent, name);
    if (!node.canConvertToInt() || !node.isIntegralNumber()) {
      throw new HarnessException("field '" + name + "' must be a 32-bit integer");
    }
    return node.intValue();
  }

  static int optionalInt(JsonNode parent, String name, int fallback) {
    JsonNode node = parent.get(name);
    return node == null || node.isNull() ? fallback : requiredInt(parent, name);
  }

  static boolean optionalBoolean(JsonNode parent, String name, boolean fallback) {
    JsonNode node = parent.get(name);
    if (node == null || node.isNull()) {
      return fallback;
    }
    if (!node.isBoolean()) {
      throw new HarnessException("field '" + name + "' must be true or false");
    }
    return node.booleanValue();
  }

  static byte[] base64(JsonNode node, String what) {
    if (!node.isTextual()) {
      throw new HarnessException(what + " must be a base64 string");
    }
    try {
      return Base64.getDecoder().decode(node.textValue());
    } catch (IllegalArgumentException e) {
      throw new HarnessException(what + " is not valid base64: " + e.getMessage());
    }
  }

  static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }
}
