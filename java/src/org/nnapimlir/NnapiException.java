package org.nnapimlir;

/**
 * A failure of the runtime: its status (the C API's nnapi_rt_status, e.g.
 * {@link #INVALID_MODEL}) and its message.
 */
public class NnapiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Null pointers, wrong counts or sizes, a closed model. */
  public static final int INVALID_ARGUMENT = 1;
  /** Not a loadable nnapi-mlir model. */
  public static final int INVALID_MODEL = 6;
  /** Out of memory or an unexpected failure inside the runtime. */
  public static final int INTERNAL_ERROR = 7;
  /** A loop ran longer than the loop timeout. */
  public static final int TIMEOUT = 8;

  private final int status;

  public NnapiException(int status, String message) {
    super(message);
    this.status = status;
  }

  /** The runtime's status code. */
  public int status() {
    return status;
  }
}
