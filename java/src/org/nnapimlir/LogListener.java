package org.nnapimlir;

/**
 * Receives the runtime's warnings (a partition's fallback reason, a device
 * left, a capped thread count) instead of logcat or stderr
 * ({@link NnapiRuntime#setLogListener}). It is called on the thread that
 * runs the model, while the runtime holds its lock: it must return quickly
 * and must not call the runtime. Exceptions it throws are dropped.
 */
public interface LogListener {
  /** {@link #WARNING}, the only level so far. */
  int WARNING = 1;

  void log(int level, String message);
}
