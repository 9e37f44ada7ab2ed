package org.nnapimlir;

import java.util.Arrays;

/** One input or output of a model, as its signature declares it. */
public final class TensorInfo {
  private final int index;
  private final String name;
  private final String dtype;
  private final long[] shape;
  private final long bytes;
  private final int elementBytes;
  private final boolean bound;

  TensorInfo(int index, String name, String dtype, long[] shape, long bytes,
             int elementBytes, boolean bound) {
    this.index = index;
    this.name = name;
    this.dtype = dtype;
    this.shape = shape;
    this.bytes = bytes;
    this.elementBytes = elementBytes;
    this.bound = bound;
  }

  /** Its position among the model's inputs or outputs. */
  public int index() {
    return index;
  }

  /** The graph's name for it. */
  public String name() {
    return name;
  }

  /**
   * The element type: "f32", "f16", "bf16", "f64", "i1", "i8".."i64" or
   * "u8".."u64". f16 and bf16 elements are 16-bit patterns; i1 one byte.
   */
  public String dtype() {
    return dtype;
  }

  /** The dimensions (row-major); -1 for a dynamic one. */
  public long[] shape() {
    return shape.clone();
  }

  /** Bytes of the whole tensor; 0 when it has a dynamic dimension. */
  public long byteSize() {
    return bytes;
  }

  /** Bytes of one element (1 for i1). */
  public int elementSize() {
    return elementBytes;
  }

  /** Compiled for one value of this input, which every run must pass. */
  public boolean isBound() {
    return bound;
  }

  @Override
  public String toString() {
    return "TensorInfo('" + name + "', " + dtype + " " + Arrays.toString(shape)
        + ")";
  }
}
