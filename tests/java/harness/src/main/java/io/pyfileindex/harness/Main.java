package io.pyfileindex.harness;

import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fileindex.FileIndexOptions;
import org.apache.paimon.fileindex.FileIndexResult;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.types.RowType;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * JSON-lines server: one request per stdin line, one response line per request on stdout,
 * logs on stderr. A bad request gets {"ok":false,"error":...}; the process only ends at EOF or
 * on {"op":"shutdown"}. The protocol is documented in tests/java_harness.py.
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) throws IOException {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    PrintStream protocol =
        new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    // Anything a library prints must not corrupt the protocol stream.
    System.setOut(System.err);

    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) {
        continue;
      }
      ObjectNode response = handleLine(line);
      protocol.print(Json.MAPPER.writeValueAsString(response));
      protocol.print('\n');
      protocol.flush();
      if (response.path("shutdown").asBoolean(false)) {
        break;
      }
    }
  }

  static ObjectNode handleLine(String line) {
    JsonNode request = null;
    ObjectNode response;
    try {
      request = parse(line);
      if (request == null || !request.isObject()) {
        throw new HarnessException("a request must be a JSON object");
      }
      response = dispatch(request);
      response.put("ok", true);
    } catch (Throwable t) {
      response = Json.object();
      response.put("ok", false);
      response.put("error", describe(t));
      if (!(t instanceof HarnessException)) {
        t.printStackTrace(System.err);
      }
    }
    if (request != null && request.has("id")) {
      response.set("id", request.get("id"));
    }
    return response;
  }

  private static JsonNode parse(String line) {
    try {
      return Json.MAPPER.readTree(line);
    } catch (IOException e) {
      throw new HarnessException("request is not valid JSON: " + e.getMessage());
    }
  }

  private static ObjectNode dispatch(JsonNode request) {
    String op = Json.requiredText(request, "op");
    switch (op) {
      case "ping":
        return ping();
      case "write":
        return write(request);
      case "read":
        return read(request);
      case "topn":
        return topN(request);
      case "bench_write":
        return benchWrite(request);
      case "bench_read":
        return benchRead(request);
      case "bench_build":
        return BenchOps.build(request);
      case "bench_open":
        return BenchOps.open(request);
      case "bench_query":
        return BenchOps.query(request);
      case "bench_topn":
        return BenchOps.topN(request);
      case "bench_files":
        return ManyFiles.run(request);
      case "shutdown":
        ObjectNode bye = Json.object();
        bye.put("shutdown", true);
        return bye;
      default:
        throw new HarnessException("unknown op '" + op + "'");
    }
  }

  private static ObjectNode ping() {
    ObjectNode out = Json.object();
    out.put("version", paimonVersion());
    out.put("java", System.getProperty("java.version"));
    return out;
  }

  private static ObjectNode write(JsonNode request) {
    RowType rowType = Schema.rowType(request.get("fields"));
    List<InternalRow> rows = Rows.fromColumns(rowType, request.get("columns"));
    Map<String, String> options = IndexWriting.options(request.get("options"));
    byte[] bytes = IndexWriting.write(rowType, rows, IndexWriting.fileIndexOptions(options));
    ObjectNode out = Json.object();
    if (bytes == null) {
      out.putNull("bytes");
    } else {
      out.put("bytes", Json.base64(bytes));
    }
    return out;
  }

  private static ObjectNode read(JsonNode request) {
    byte[] container = Json.base64(Json.required(request, "bytes"), "'bytes'");
    RowType rowType = Schema.rowType(request.get("fields"));
    JsonNode predicates = Json.required(request, "predicates");
    if (!predicates.isArray()) {
      throw new HarnessException("'predicates' must be a list");
    }
    ObjectNode out = Json.object();
    ArrayNode results = out.putArray("results");
    for (JsonNode json : predicates) {
      try {
        Predicate predicate = Predicates.parse(rowType, json);
        FileIndexResult result = IndexReading.evaluate(container, rowType, predicate);
        results.add(IndexReading.answer(result));
      } catch (Throwable t) {
        results.add(IndexReading.error(t));
      }
    }
    return out;
  }

  private static ObjectNode topN(JsonNode request) {
    byte[] container = Json.base64(Json.required(request, "bytes"), "'bytes'");
    RowType rowType = Schema.rowType(request.get("fields"));
    return IndexReading.answer(IndexReading.topN(container, rowType, request));
  }

  /**
   * Times DataFileIndexWriter runs (create, write every row, close). Timed runs force the
   * bytes inline (threshold 1 tb) so no sidecar file I/O is measured; the returned bytes come
   * from one untimed run with the request's own options, exactly as "write" does.
   */
  private static ObjectNode benchWrite(JsonNode request) {
    RowType rowType = Schema.rowType(request.get("fields"));
    List<InternalRow> rows = Rows.fromColumns(rowType, request.get("columns"));
    Map<String, String> options = IndexWriting.options(request.get("options"));
    byte[] bytes = IndexWriting.write(rowType, rows, IndexWriting.fileIndexOptions(options));
    if (bytes == null) {
      throw new HarnessException("the options declare no file index; nothing to time");
    }
    Map<String, String> inline = new LinkedHashMap<>(options);
    inline.put("file-index.in-manifest-threshold", "1 tb");
    FileIndexOptions inlineOptions = IndexWriting.fileIndexOptions(inline);
    int repeat = Json.requiredInt(request, "repeat");
    Bench bench =
        Bench.measure(
            Json.optionalInt(request, "warmup", repeat),
            repeat,
            () -> IndexWriting.write(rowType, rows, inlineOptions).length);
    ObjectNode out = timing(bench);
    out.put("bytes", Json.base64(bytes));
    return out;
  }

  /** Times one FileIndexPredicate construction + evaluate + materialized answer. */
  private static ObjectNode benchRead(JsonNode request) {
    byte[] container = Json.base64(Json.required(request, "bytes"), "'bytes'");
    RowType rowType = Schema.rowType(request.get("fields"));
    Predicate predicate = Predicates.parse(rowType, Json.required(request, "predicate"));
    int repeat = Json.requiredInt(request, "repeat");
    Bench bench =
        Bench.measure(
            Json.optionalInt(request, "warmup", repeat),
            repeat,
            () -> {
              FileIndexResult result = IndexReading.evaluate(container, rowType, predicate);
              IndexReading.materialize(result);
              return result.hashCode();
            });
    ObjectNode out = timing(bench);
    out.set("result", IndexReading.answer(IndexReading.evaluate(container, rowType, predicate)));
    return out;
  }

  private static ObjectNode timing(Bench bench) {
    ObjectNode out = Json.object();
    out.put("median_ns", bench.medianNanos);
    out.put("min_ns", bench.minNanos);
    out.put("runs", bench.runs);
    return out;
  }

  static String describe(Throwable t) {
    String message = t.getMessage();
    if (t instanceof HarnessException) {
      return message;
    }
    String text = t.getClass().getName() + (message == null ? "" : ": " + message);
    // Wrapped exceptions often repeat their cause's text; add the root cause only if new.
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String rootText = root.getClass().getName() + ": " + root.getMessage();
    if (root != t && !text.contains(String.valueOf(root.getMessage()))) {
      text += " (caused by " + rootText + ")";
    }
    return text;
  }

  private static String paimonVersion() {
    String resource = "META-INF/maven/org.apache.paimon/paimon-core/pom.properties";
    try (InputStream in = Main.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
