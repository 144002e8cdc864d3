package io.pyfileindex.harness;

/** A bad request: reported to the client as {"ok":false,...}, never fatal for the JVM. */
final class HarnessException extends RuntimeException {

  HarnessException(String message) {
    super(message);
  }

  HarnessException(String message, Throwable cause) {
    super(message, cause);
  }
}
