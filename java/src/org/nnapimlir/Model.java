package org.nnapimlir;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A model nnapi-compile produced, loaded and ready to run: the Java face of
 * the runtime's C API (Model.h). Its NNAPI partitions run on the devices the
 * runtime picks, each falling back to its host copy where a device cannot.
 *
 * <pre>
 * try (Model model = Model.open("/data/local/tmp/libclassifier.so")) {
 *   float[] scores = (float[]) model.run(image)[0];
 * }
 * </pre>
 *
 * Runs may happen on several threads at once; {@link #close()} waits for
 * them and refuses runs that begin after it.
 */
public final class Model implements AutoCloseable {
  private static volatile boolean loaded;

  /**
   * Loads the native half: the library at the system property
   * {@code org.nnapimlir.jni} if it is set, else {@code libnnapi_mlir_jni}
   * from java.library.path (an app's jniLibs).
   */
  static synchronized void loadNative() {
    if (loaded)
      return;
    String path = System.getProperty("org.nnapimlir.jni");
    if (path != null && !path.isEmpty())
      System.load(path);
    else
      System.loadLibrary("nnapi_mlir_jni");
    loaded = true;
  }

  static {
    loadNative();
  }

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private long handle;
  private final TensorInfo[] inputs, outputs;

  private Model(long handle) {
    this.handle = handle;
    this.inputs = nativeTensors(handle, true);
    this.outputs = nativeTensors(handle, false);
  }

  /** Loads the compiled model (a shared library) at {@code path}. */
  public static Model open(String path) {
    return new Model(nativeOpen(path, false));
  }

  /**
   * Opens a model the process has loaded already, by the name the dynamic
   * loader knows it under: after {@code System.loadLibrary("classifier")},
   * {@code openLoaded("libclassifier.so")}.
   */
  public static Model openLoaded(String soname) {
    return new Model(nativeOpen(soname, true));
  }

  /**
   * Opens the model stored at [offset, offset + length) of the open file
   * {@code fd}: an uncompressed library inside an APK, as
   * AssetFileDescriptor's getParcelFileDescriptor().getFd(),
   * getStartOffset() and getLength() give it. The caller keeps fd.
   */
  public static Model open(int fd, long offset, long length) {
    return new Model(nativeOpenFd(fd, offset, length));
  }

  /** The model's inputs, in the order run() takes them. */
  public TensorInfo[] inputs() {
    return inputs.clone();
  }

  /** The model's outputs, in the order run() gives them. */
  public TensorInfo[] outputs() {
    return outputs.clone();
  }

  /** The signature text the model carries (ModelABI.h). */
  public String signature() {
    lock.readLock().lock();
    try {
      return nativeSignature(checkedHandle());
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Runs the model on direct ByteBuffers, without copies: each buffer's
   * bytes from its position to its limit are the tensor (native byte order,
   * row-major), and must be exactly its {@link TensorInfo#byteSize()}.
   */
  public void run(ByteBuffer[] inputBuffers, ByteBuffer[] outputBuffers) {
    if (inputBuffers == null || outputBuffers == null)
      throw new NnapiException(NnapiException.INVALID_ARGUMENT,
                               "null buffer array");
    long[] inPos = positions(inputBuffers), inSize = sizes(inputBuffers);
    long[] outPos = positions(outputBuffers), outSize = sizes(outputBuffers);
    lock.readLock().lock();
    try {
      nativeRun(checkedHandle(), inputBuffers, inPos, inSize, outputBuffers,
                outPos, outSize);
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Runs the model on arrays (or ByteBuffers) and returns its outputs as
   * arrays. Each input is a ByteBuffer (heap ones are copied) or the array
   * of its type: float[] for f32, double[] for f64, short[] for f16, bf16,
   * i16 and u16 (bit patterns for the floats), byte[] for i8 and u8, int[]
   * for i32 and u32, long[] for i64 and u64, boolean[] for i1. Outputs come
   * as the same array types.
   */
  public Object[] run(Object... values) {
    if (isDynamic())
      throw new NnapiException(NnapiException.INVALID_ARGUMENT,
          "the model has dynamic dimensions: give the inputs' shapes with "
              + "runWithShapes");
    if (values == null || values.length != inputs.length)
      throw new NnapiException(NnapiException.INVALID_ARGUMENT,
          "the model takes " + inputs.length + " inputs, got "
              + (values == null ? 0 : values.length));
    // The copies live in the runtime's memory: large ones reach NNAPI
    // without another copy.
    List<ByteBuffer> scratch = new ArrayList<ByteBuffer>();
    try {
      ByteBuffer[] in = new ByteBuffer[inputs.length];
      for (int i = 0; i < in.length; ++i)
        in[i] = toBuffer(inputs[i], values[i],
                         inputs[i].byteSize() / inputs[i].elementSize(),
                         scratch);
      ByteBuffer[] out = new ByteBuffer[outputs.length];
      for (int i = 0; i < out.length; ++i)
        out[i] = RuntimeBuffers.scratch((int) outputs[i].byteSize(), scratch);
      run(in, out);
      Object[] results = new Object[out.length];
      for (int i = 0; i < out.length; ++i)
        results[i] = toArray(outputs[i], out[i],
                             outputs[i].byteSize() / outputs[i].elementSize());
      return results;
    } finally {
      RuntimeBuffers.free(scratch);
    }
  }

  /**
   * Whether the model has dynamic dimensions (compiled with --input-shape
   * x=1x[16..2048]x64 or ?): their {@link TensorInfo#shape()} entries are -1
   * and their byteSize() 0, and the model runs through
   * {@link #run(long[][], ByteBuffer[], ByteBuffer[])} or
   * {@link #runWithShapes}, which take the inputs' shapes.
   */
  public boolean isDynamic() {
    lock.readLock().lock();
    try {
      return nativeIsDynamic(checkedHandle());
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * The outputs' shapes for inputs of these shapes (one per input). Throws
   * INVALID_ARGUMENT naming the first dimension outside the range the model
   * was compiled for.
   */
  public long[][] outputShapes(long[]... inputShapes) {
    lock.readLock().lock();
    try {
      return nativeOutputDims(checkedHandle(), inputShapes);
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * As {@link #run(ByteBuffer[], ByteBuffer[])}, for inputs of the shapes
   * given (any size within a dynamic dimension's range); each output buffer
   * must hold exactly its tensor at the shape {@link #outputShapes} gives.
   * Static models run this way too.
   */
  public void run(long[][] inputShapes, ByteBuffer[] inputBuffers,
                  ByteBuffer[] outputBuffers) {
    if (inputShapes == null || inputBuffers == null || outputBuffers == null)
      throw new NnapiException(NnapiException.INVALID_ARGUMENT,
                               "null shape or buffer array");
    long[] inPos = positions(inputBuffers), inSize = sizes(inputBuffers);
    long[] outPos = positions(outputBuffers), outSize = sizes(outputBuffers);
    lock.readLock().lock();
    try {
      nativeRunDims(checkedHandle(), inputShapes, inputBuffers, inPos, inSize,
                    outputBuffers, outPos, outSize);
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * As {@link #run(Object...)}, for inputs of the shapes given (row-major
   * arrays of that many elements); the outputs come at the shapes
   * {@link #outputShapes} gives for them.
   */
  public Object[] runWithShapes(long[][] inputShapes, Object... values) {
    if (values == null || values.length != inputs.length || inputShapes == null
        || inputShapes.length != inputs.length)
      throw new NnapiException(NnapiException.INVALID_ARGUMENT,
          "the model takes " + inputs.length + " inputs and their shapes");
    long[][] outShapes = outputShapes(inputShapes);
    List<ByteBuffer> scratch = new ArrayList<ByteBuffer>();
    try {
      ByteBuffer[] in = new ByteBuffer[inputs.length];
      for (int i = 0; i < in.length; ++i)
        in[i] = toBuffer(inputs[i], values[i], elements(inputShapes[i]),
                         scratch);
      ByteBuffer[] out = new ByteBuffer[outputs.length];
      for (int i = 0; i < out.length; ++i)
        out[i] = RuntimeBuffers.scratch(
            (int) (elements(outShapes[i]) * outputs[i].elementSize()), scratch);
      run(inputShapes, in, out);
      Object[] results = new Object[out.length];
      for (int i = 0; i < out.length; ++i)
        results[i] = toArray(outputs[i], out[i], elements(outShapes[i]));
      return results;
    } finally {
      RuntimeBuffers.free(scratch);
    }
  }

  private static long elements(long[] shape) {
    long n = 1;
    for (long d : shape)
      n *= d;
    return n;
  }

  /** Unloads the model after the runs in progress; idempotent. */
  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      if (handle != 0)
        nativeClose(handle);
      handle = 0;
    } finally {
      lock.writeLock().unlock();
    }
  }

  private long checkedHandle() {
    if (handle == 0)
      throw new NnapiException(NnapiException.INVALID_ARGUMENT,
                               "the model is closed");
    return handle;
  }

  private static long[] positions(ByteBuffer[] buffers) {
    long[] p = new long[buffers == null ? 0 : buffers.length];
    for (int i = 0; i < p.length; ++i)
      p[i] = buffers[i] == null ? 0 : buffers[i].position();
    return p;
  }

  private static long[] sizes(ByteBuffer[] buffers) {
    long[] s = new long[buffers == null ? 0 : buffers.length];
    for (int i = 0; i < s.length; ++i)
      s[i] = buffers[i] == null ? 0 : buffers[i].remaining();
    return s;
  }

  /** The Java array type that holds tensor `t`. */
  private static Class<?> arrayTypeOf(TensorInfo t) {
    switch (t.dtype()) {
    case "f32": return float[].class;
    case "f64": return double[].class;
    case "i1": return boolean[].class;
    default:
      switch (t.elementSize()) {
      case 1: return byte[].class;
      case 2: return short[].class;
      case 4: return int[].class;
      default: return long[].class;
      }
    }
  }

  private static ByteBuffer toBuffer(TensorInfo t, Object value,
                                     long elements, List<ByteBuffer> scratch) {
    String what = "input " + t.index() + " ('" + t.name() + "', " + t.dtype()
        + ")";
    if (value instanceof ByteBuffer) {
      ByteBuffer b = (ByteBuffer) value;
      if (b.isDirect())
        return b;
      ByteBuffer copy = RuntimeBuffers.scratch(b.remaining(), scratch);
      copy.put(b.duplicate()).flip();
      return copy;
    }
    Class<?> want = arrayTypeOf(t);
    if (value == null || value.getClass() != want)
      throw new NnapiException(NnapiException.INVALID_ARGUMENT,
          what + " takes a " + want.getSimpleName() + " or a ByteBuffer, got "
              + (value == null ? "null" : value.getClass().getSimpleName()));
    int length = java.lang.reflect.Array.getLength(value);
    if (length != elements)
      throw new NnapiException(NnapiException.INVALID_ARGUMENT,
          what + " has " + elements + " elements, got " + length);
    ByteBuffer b = RuntimeBuffers.scratch((int) (elements * t.elementSize()),
                                          scratch);
    if (value instanceof float[]) b.asFloatBuffer().put((float[]) value);
    else if (value instanceof double[]) b.asDoubleBuffer().put((double[]) value);
    else if (value instanceof short[]) b.asShortBuffer().put((short[]) value);
    else if (value instanceof int[]) b.asIntBuffer().put((int[]) value);
    else if (value instanceof long[]) b.asLongBuffer().put((long[]) value);
    else if (value instanceof byte[]) b.put((byte[]) value).flip();
    else {
      for (boolean v : (boolean[]) value)
        b.put((byte) (v ? 1 : 0));
      b.flip();
    }
    return b;
  }

  private static Object toArray(TensorInfo t, ByteBuffer b, long elements) {
    b.rewind();
    int n = (int) elements;
    Class<?> type = arrayTypeOf(t);
    if (type == float[].class) { float[] a = new float[n]; b.asFloatBuffer().get(a); return a; }
    if (type == double[].class) { double[] a = new double[n]; b.asDoubleBuffer().get(a); return a; }
    if (type == short[].class) { short[] a = new short[n]; b.asShortBuffer().get(a); return a; }
    if (type == int[].class) { int[] a = new int[n]; b.asIntBuffer().get(a); return a; }
    if (type == long[].class) { long[] a = new long[n]; b.asLongBuffer().get(a); return a; }
    if (type == byte[].class) { byte[] a = new byte[n]; b.get(a); return a; }
    boolean[] a = new boolean[n];
    for (int i = 0; i < n; ++i)
      a[i] = b.get(i) != 0;
    return a;
  }

  private static native long nativeOpen(String path, boolean loaded);
  private static native long nativeOpenFd(int fd, long offset, long length);
  private static native void nativeClose(long handle);
  private static native TensorInfo[] nativeTensors(long handle, boolean inputs);
  private static native String nativeSignature(long handle);
  private static native boolean nativeIsDynamic(long handle);
  private static native long[][] nativeOutputDims(long handle,
                                                  long[][] inputDims);
  private static native void nativeRunDims(long handle, long[][] inputDims,
                                           ByteBuffer[] inputs,
                                           long[] inPositions, long[] inSizes,
                                           ByteBuffer[] outputs,
                                           long[] outPositions,
                                           long[] outSizes);
  private static native void nativeRun(long handle, ByteBuffer[] inputs,
                                       long[] inPositions, long[] inSizes,
                                       ByteBuffer[] outputs,
                                       long[] outPositions, long[] outSizes);
}
