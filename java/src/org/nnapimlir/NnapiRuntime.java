package org.nnapimlir;

/**
 * The runtime's process-wide settings and counters (Runtime.h): options as
 * nnapi_rt_set_option takes them, host-only mode, NNAPI execution counts and
 * what became of each partition.
 */
public final class NnapiRuntime {
  static {
    Model.loadNative();
  }

  private NnapiRuntime() {}

  /**
   * Sets a runtime option by name, as nnapi_rt_set_option does: "devices",
   * "threads", "cache_dir", "preference", "priority", "bursts", "verify",
   * "validate", ... An unknown name or a bad value throws; a null value
   * forgets the one given (the environment's, else the default, applies).
   */
  public static native void setOption(String name, String value);

  /** Number of threads for the host code and the host device. */
  public static void setThreads(int threads) {
    setOption("threads", Integer.toString(threads));
  }

  /** Host-only: never call NNAPI, every partition runs its host copy. */
  public static native void setHostOnly(boolean hostOnly);

  public static native boolean isHostOnly();

  /**
   * {successful NNAPI executions, failed ones} since the last reset; with
   * {@code reset}, resets them after reading.
   */
  public static long[] stats(boolean reset) {
    return nativeStats(reset);
  }

  /**
   * Sends the runtime's warnings to {@code listener} (null: back to logcat
   * on Android, stderr elsewhere).
   */
  public static native void setLogListener(LogListener listener);

  /** Each partition run so far, in the order of their first run. */
  public static native PartitionInfo[] partitions();

  /**
   * {bytes of partition inputs and outputs given to NNAPI as memory, bytes
   * given as pointers} since the last reset ({@link #stats} with
   * {@code reset} resets them too).
   */
  public static long[] bindingStats() {
    return nativeBindingStats();
  }

  /**
   * A direct buffer (native byte order) of {@code bytes} bytes from the
   * runtime's allocator. A model's input or output of 64 KiB or more in
   * such a buffer reaches NNAPI as shared memory instead of being copied at
   * every execution (the "bind_memory" option). Its memory is freed after
   * the buffer is garbage-collected.
   */
  public static java.nio.ByteBuffer allocateBuffer(int bytes) {
    return RuntimeBuffers.allocate(bytes);
  }

  private static native long[] nativeStats(boolean reset);

  private static native long[] nativeBindingStats();
}
