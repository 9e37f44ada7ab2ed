package org.nnapimlir;

/**
 * What became of one NNAPI partition run so far: the device it ran on, or
 * why it ran its host copy ({@link NnapiRuntime#partitions()}).
 */
public final class PartitionInfo {
  private final String name, device, error, lastFailure, passedOver;
  private final int operations;
  private final long executions, failures;

  PartitionInfo(String name, String device, String error, int operations,
                long executions, long failures, String lastFailure,
                String passedOver) {
    this.name = name;
    this.device = device;
    this.error = error;
    this.operations = operations;
    this.executions = executions;
    this.failures = failures;
    this.lastFailure = lastFailure;
    this.passedOver = passedOver;
  }

  /** Its function in the compiled model. */
  public String name() {
    return name;
  }

  /** The device it was compiled for; "" if none. */
  public String device() {
    return device;
  }

  /** Why it runs its host copy; "" if it does not. */
  public String error() {
    return error;
  }

  /** Whether it runs on an NNAPI device. */
  public boolean onDevice() {
    return error.isEmpty() && !device.isEmpty();
  }

  /** NNAPI operations in it. */
  public int operations() {
    return operations;
  }

  /** Successful NNAPI executions. */
  public long executions() {
    return executions;
  }

  /** Executions that failed (the host copy ran instead). */
  public long failures() {
    return failures;
  }

  /** Why the last failed execution failed; "" if none did. */
  public String lastFailure() {
    return lastFailure;
  }

  /** More preferred devices it did not go to, and why; "" if none. */
  public String passedOver() {
    return passedOver;
  }

  @Override
  public String toString() {
    return "PartitionInfo('" + name + "', "
        + (onDevice() ? "device '" + device + "'" : "host: " + error) + ")";
  }
}
