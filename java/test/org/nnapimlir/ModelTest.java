package org.nnapimlir;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.RandomAccessFile;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The Java API against the example models, compiled by the test's setup
 * (java/CMakeLists.txt) into the directory {@code org.nnapimlir.testdir}:
 * libcnn.so (examples/onnx/cnn.onnx, NNAPI partitions on the host NNAPI
 * device) and libclassifier.so (examples/tflite/classifier.tflite). The
 * expected outputs are numpy's (the examples' *_expected.npy).
 */
public class ModelTest {
  static String dir, examples;
  static Npy cnnInput, cnnExpected, tfliteInput, tfliteExpected;

  @BeforeClass
  public static void setUp() throws Exception {
    dir = System.getProperty("org.nnapimlir.testdir");
    examples = System.getProperty("org.nnapimlir.examples");
    cnnInput = Npy.read(examples + "/onnx/cnn_input.npy");
    cnnExpected = Npy.read(examples + "/onnx/cnn_expected.npy");
    tfliteInput = Npy.read(examples + "/tflite/classifier_input.npy");
    tfliteExpected = Npy.read(examples + "/tflite/classifier_expected.npy");
  }

  static void assertClose(float[] expected, float[] actual) {
    assertEquals(expected.length, actual.length);
    for (int i = 0; i < expected.length; ++i)
      assertTrue("element " + i + ": " + actual[i] + " vs " + expected[i],
                 Math.abs(actual[i] - expected[i])
                     <= 1e-4 + 1e-3 * Math.abs(expected[i]));
  }

  static NnapiException expectFailure(Runnable r) {
    try {
      r.run();
    } catch (NnapiException e) {
      return e;
    }
    fail("no NnapiException");
    return null;
  }

  @Test
  public void signatureDescribesTheModel() {
    try (Model m = Model.open(dir + "/libcnn.so")) {
      TensorInfo[] in = m.inputs(), out = m.outputs();
      assertEquals(1, in.length);
      assertEquals(1, out.length);
      assertEquals("f32", in[0].dtype());
      assertArrayEquals(cnnInput.shape, in[0].shape());
      assertArrayEquals(cnnExpected.shape, out[0].shape());
      assertEquals(4L * cnnInput.data.length, in[0].byteSize());
      assertEquals(4, in[0].elementSize());
      assertFalse(in[0].isBound());
      assertTrue(m.signature().startsWith("nnapi-mlir-model "));
    }
  }

  @Test
  public void onnxExampleMatchesNumpy() {
    NnapiRuntime.stats(true);
    try (Model m = Model.open(dir + "/libcnn.so")) {
      Object[] out = m.run(cnnInput.data);
      assertClose(cnnExpected.data, (float[]) out[0]);
      // Its partition ran on the host NNAPI device (what the runtime
      // reports until the model is closed).
      StringBuilder seen = new StringBuilder();
      boolean onDevice = false;
      for (PartitionInfo p : NnapiRuntime.partitions()) {
        seen.append(p).append(' ');
        onDevice |= p.onDevice() && p.executions() > 0;
      }
      assertTrue(seen.toString(), onDevice);
      assertTrue(NnapiRuntime.stats(false)[0] > 0);
    }
  }

  @Test
  public void tfliteExampleMatchesNumpy() {
    try (Model m = Model.open(dir + "/libclassifier.so")) {
      assertClose(tfliteExpected.data, (float[]) m.run(tfliteInput.data)[0]);
    }
  }

  @Test
  public void hostOnlyMatchesToo() {
    NnapiRuntime.setHostOnly(true);
    try (Model m = Model.open(dir + "/libcnn.so")) {
      assertTrue(NnapiRuntime.isHostOnly());
      assertClose(cnnExpected.data, (float[]) m.run(cnnInput.data)[0]);
    } finally {
      NnapiRuntime.setHostOnly(false);
    }
  }

  @Test
  public void directBuffersAtAnOffsetWithoutCopies() {
    try (Model m = Model.open(dir + "/libcnn.so")) {
      int inBytes = (int) m.inputs()[0].byteSize();
      int outBytes = (int) m.outputs()[0].byteSize();
      ByteBuffer in = ByteBuffer.allocateDirect(16 + inBytes)
                          .order(ByteOrder.nativeOrder());
      in.position(16);
      in.slice().order(ByteOrder.nativeOrder()).asFloatBuffer()
          .put(cnnInput.data);
      ByteBuffer out = ByteBuffer.allocateDirect(8 + outBytes + 8)
                           .order(ByteOrder.nativeOrder());
      out.position(8).limit(8 + outBytes);
      m.run(new ByteBuffer[] {in}, new ByteBuffer[] {out});
      float[] y = new float[cnnExpected.data.length];
      out.slice().order(ByteOrder.nativeOrder()).asFloatBuffer().get(y);
      assertClose(cnnExpected.data, y);
      assertEquals(0f, out.getFloat(0), 0f); // nothing written before it
    }
  }

  @Test
  public void heapBufferIsCopied() {
    try (Model m = Model.open(dir + "/libcnn.so")) {
      ByteBuffer heap = ByteBuffer.allocate((int) m.inputs()[0].byteSize())
                            .order(ByteOrder.nativeOrder());
      heap.asFloatBuffer().put(cnnInput.data);
      assertClose(cnnExpected.data, (float[]) m.run(heap)[0]);
    }
  }

  @Test
  public void badInputsThrow() {
    try (Model m = Model.open(dir + "/libcnn.so")) {
      NnapiException e = expectFailure(() -> m.run(new int[12]));
      assertEquals(NnapiException.INVALID_ARGUMENT, e.status());
      assertTrue(e.getMessage(), e.getMessage().contains(
          "input 0 ('image', f32) takes a float[] or a ByteBuffer, got int[]"));
      e = expectFailure(() -> m.run(new float[5]));
      assertTrue(e.getMessage(), e.getMessage().contains(
          "has " + cnnInput.data.length + " elements, got 5"));
      e = expectFailure(() -> m.run(cnnInput.data, cnnInput.data));
      assertTrue(e.getMessage(),
                 e.getMessage().contains("takes 1 inputs, got 2"));
      // A direct buffer of the wrong size: the runtime's own check.
      e = expectFailure(() -> m.run(
          new ByteBuffer[] {ByteBuffer.allocateDirect(10)},
          new ByteBuffer[] {ByteBuffer.allocateDirect(40)}));
      assertEquals(NnapiException.INVALID_ARGUMENT, e.status());
      assertTrue(e.getMessage(), e.getMessage().contains("got 10"));
      e = expectFailure(() -> m.run(new ByteBuffer[] {null},
                                    new ByteBuffer[] {null}));
      assertTrue(e.getMessage(), e.getMessage().contains("not a direct"));
      e = expectFailure(() -> m.run((ByteBuffer[]) null, null));
      assertTrue(e.getMessage(), e.getMessage().contains("null buffer array"));
    }
  }

  @Test
  public void closedModelThrows() {
    Model m = Model.open(dir + "/libcnn.so");
    m.close();
    m.close(); // idempotent
    NnapiException e = expectFailure(() -> m.run(cnnInput.data));
    assertEquals(NnapiException.INVALID_ARGUMENT, e.status());
    assertTrue(e.getMessage(), e.getMessage().contains("the model is closed"));
  }

  @Test
  public void badModelsThrow() throws Exception {
    NnapiException e = expectFailure(() -> Model.open(dir + "/missing.so"));
    assertEquals(NnapiException.INVALID_MODEL, e.status());
    File text = File.createTempFile("not-a-model", ".so");
    text.deleteOnExit();
    Files.write(text.toPath(), "hello".getBytes("UTF-8"));
    e = expectFailure(() -> Model.open(text.getPath()));
    assertEquals(NnapiException.INVALID_MODEL, e.status());
    e = expectFailure(() -> Model.openLoaded("libnot-loaded-anywhere.so"));
    assertEquals(NnapiException.INVALID_MODEL, e.status());
    assertTrue(e.getMessage(), e.getMessage().contains("is loaded"));
    e = expectFailure(() -> NnapiRuntime.setOption("no-such-option", "1"));
    assertEquals(NnapiException.INVALID_ARGUMENT, e.status());
  }

  @Test
  public void concurrentRunsAgree() throws Exception {
    try (Model m = Model.open(dir + "/libcnn.so")) {
      List<Thread> threads = new ArrayList<>();
      AtomicReference<Throwable> problem = new AtomicReference<>();
      for (int t = 0; t < 4; ++t) {
        Thread thread = new Thread(() -> {
          try {
            for (int i = 0; i < 20; ++i)
              assertClose(cnnExpected.data, (float[]) m.run(cnnInput.data)[0]);
          } catch (Throwable x) {
            problem.compareAndSet(null, x);
          }
        });
        threads.add(thread);
        thread.start();
      }
      for (Thread thread : threads)
        thread.join();
      if (problem.get() != null)
        throw new AssertionError(problem.get());
    }
  }

  @Test
  public void closeDuringRuns() throws Exception {
    Model m = Model.open(dir + "/libcnn.so");
    AtomicInteger done = new AtomicInteger(), refused = new AtomicInteger();
    AtomicReference<Throwable> problem = new AtomicReference<>();
    Thread runner = new Thread(() -> {
      try {
        while (true) {
          assertClose(cnnExpected.data, (float[]) m.run(cnnInput.data)[0]);
          done.incrementAndGet();
        }
      } catch (NnapiException e) {
        if (e.getMessage().contains("the model is closed"))
          refused.incrementAndGet();
        else
          problem.set(e);
      } catch (Throwable x) {
        problem.set(x);
      }
    });
    runner.start();
    while (done.get() < 3)
      Thread.sleep(1);
    m.close(); // waits for the run in progress
    runner.join();
    if (problem.get() != null)
      throw new AssertionError(problem.get());
    assertEquals(1, refused.get());
  }

  @Test
  public void warningsReachTheLogListener() {
    List<String> lines = new ArrayList<>();
    NnapiRuntime.setLogListener((level, message) -> {
      assertEquals(LogListener.WARNING, level);
      lines.add(message);
    });
    try {
      // More threads than CPUs: capped, with a warning.
      NnapiRuntime.setOption("threads", "256");
      try (Model m = Model.open(dir + "/libcnn.so")) {
        assertClose(cnnExpected.data, (float[]) m.run(cnnInput.data)[0]);
      }
    } finally {
      NnapiRuntime.setLogListener(null);
      NnapiRuntime.setOption("threads", null);
    }
    assertEquals(lines.toString(), 1, lines.size());
    assertTrue(lines.get(0), lines.get(0).startsWith("threads 256 is more than"));
  }

  @Test
  public void openLoadedBySoname() {
    System.load(new File(dir, "libclassifier.so").getAbsolutePath());
    try (Model m = Model.openLoaded("libclassifier.so")) {
      assertClose(tfliteExpected.data, (float[]) m.run(tfliteInput.data)[0]);
    }
  }

  /** The int behind a FileDescriptor (Android's getFd()). */
  static int fdOf(FileDescriptor fd) throws Exception {
    Field f = FileDescriptor.class.getDeclaredField("fd");
    f.setAccessible(true);
    return f.getInt(fd);
  }

  @Test
  public void openFromFileDescriptorAtAnOffset() throws Exception {
    // The model inside a larger file, as an uncompressed library sits in an
    // APK: 4096 bytes before it, 100 after.
    byte[] model = Files.readAllBytes(new File(dir, "libcnn.so").toPath());
    File bundle = File.createTempFile("bundle", ".apk");
    bundle.deleteOnExit();
    try (FileOutputStream out = new FileOutputStream(bundle)) {
      out.write(new byte[4096]);
      out.write(model);
      out.write(new byte[100]);
    }
    try (RandomAccessFile file = new RandomAccessFile(bundle, "r")) {
      int fd = fdOf(file.getFD());
      try (Model m = Model.open(fd, 4096, model.length)) {
        assertClose(cnnExpected.data, (float[]) m.run(cnnInput.data)[0]);
      }
      // A range past the end, and one that is not the library.
      NnapiException e = expectFailure(
          () -> Model.open(fd, 4096, model.length + 200));
      assertEquals(NnapiException.INVALID_ARGUMENT, e.status());
      assertTrue(e.getMessage(), e.getMessage().contains("is not inside the file"));
      e = expectFailure(() -> Model.open(fd, 0, model.length));
      assertEquals(NnapiException.INVALID_MODEL, e.status());
    }
  }

  /**
   * dynamic_sequence.mlir computed here for a [1, s, 16] input: the softmax
   * over 8 features of x W + b, and the sum of x W + b over the sequence.
   */
  static float[][] sequenceReference(float[] x, int s) {
    double[] ramp = {1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, 0.0};
    double[] bias = {0.1, 0.2, 0.3, 0.4, -0.1, -0.2, -0.3, -0.4};
    float[] wantSoft = new float[s * 8], wantSum = new float[8];
    double[] total = new double[8];
    for (int r = 0; r < s; ++r) {
      double[] y = new double[8];
      double max = Double.NEGATIVE_INFINITY, z = 0;
      for (int j = 0; j < 8; ++j) {
        double acc = bias[j];
        for (int k = 0; k < 16; ++k)
          acc += x[r * 16 + k] * 0.03125 * ramp[j];
        y[j] = acc;
        total[j] += acc;
        max = Math.max(max, acc);
      }
      for (int j = 0; j < 8; ++j)
        z += Math.exp(y[j] - max);
      for (int j = 0; j < 8; ++j)
        wantSoft[r * 8 + j] = (float) (Math.exp(y[j] - max) / z);
    }
    for (int j = 0; j < 8; ++j)
      wantSum[j] = (float) total[j];
    return new float[][] {wantSoft, wantSum};
  }

  /**
   * Buffers from NnapiRuntime.allocateBuffer are the runtime's memory: a
   * 2048-long sequence (128 KiB in, 64 KiB out) reaches NNAPI as memory,
   * with the same results as the model's definition.
   */
  @Test
  public void runtimeBuffersReachNNAPIAsMemory() {
    int s = 2048;
    float[] x = new float[s * 16];
    for (int i = 0; i < x.length; ++i)
      x[i] = (float) Math.cos(0.11 * i);
    float[][] want = sequenceReference(x, s);
    try (Model m = Model.open(dir + "/libsequence.so")) {
      ByteBuffer in = NnapiRuntime.allocateBuffer(x.length * 4);
      ByteBuffer soft = NnapiRuntime.allocateBuffer(s * 8 * 4);
      ByteBuffer sum = NnapiRuntime.allocateBuffer(8 * 4);
      assertTrue(in.isDirect());
      assertEquals(ByteOrder.nativeOrder(), in.order());
      in.asFloatBuffer().put(x);
      NnapiRuntime.stats(true);
      m.run(new long[][] {{1, s, 16}}, new ByteBuffer[] {in},
            new ByteBuffer[] {soft, sum});
      long[] bound = NnapiRuntime.bindingStats();
      assertTrue("memory bytes " + bound[0], bound[0] >= x.length * 4);
      float[] gotSoft = new float[s * 8], gotSum = new float[8];
      soft.asFloatBuffer().get(gotSoft);
      sum.asFloatBuffer().get(gotSum);
      assertClose(want[0], gotSoft);
      assertClose(want[1], gotSum);
      // Arrays are copied into the runtime's memory for the run: the same.
      NnapiRuntime.stats(true);
      Object[] out = m.runWithShapes(new long[][] {{1, s, 16}}, (Object) x);
      assertTrue(NnapiRuntime.bindingStats()[0] >= x.length * 4);
      assertClose(want[0], (float[]) out[0]);
    }
    // Allocating goes on after buffers nobody holds were collected (when
    // their memory is freed is the collector's choice: not asserted), and
    // a buffer may be empty.
    for (int i = 0; i < 64; ++i)
      NnapiRuntime.allocateBuffer(1 << 20).put(0, (byte) 1);
    System.gc();
    ByteBuffer after = NnapiRuntime.allocateBuffer(1 << 20);
    after.put(0, (byte) 2);
    assertEquals(2, after.get(0));
    assertEquals(0, NnapiRuntime.allocateBuffer(0).capacity());
  }

  /**
   * A model with a dynamic sequence length (test/e2e/Inputs/
   * dynamic_sequence.mlir, libsequence.so): run at three lengths against the
   * model's definition computed here (projection, softmax over 8 features;
   * the sum over the sequence).
   */
  @Test
  public void dynamicDimensions() {
    try (Model m = Model.open(dir + "/libsequence.so")) {
      assertTrue(m.isDynamic());
      assertArrayEquals(new long[] {1, -1, 16}, m.inputs()[0].shape());
      assertEquals(0, m.inputs()[0].byteSize());
      for (int s : new int[] {1, 7, 130}) {
        float[] x = new float[s * 16];
        for (int i = 0; i < x.length; ++i)
          x[i] = (float) Math.sin(0.37 * i);
        long[][] shapes = {{1, s, 16}};
        assertArrayEquals(new long[] {1, s, 8}, m.outputShapes(shapes)[0]);
        Object[] out = m.runWithShapes(shapes, (Object) x);
        float[] soft = (float[]) out[0], sum = (float[]) out[1];
        assertEquals(s * 8, soft.length);
        assertEquals(8, sum.length);
        float[][] want = sequenceReference(x, s);
        assertClose(want[0], soft);
        assertClose(want[1], sum);
      }
      NnapiException e = expectFailure(
          () -> m.outputShapes(new long[][] {{2, 5, 16}}));
      assertEquals(NnapiException.INVALID_ARGUMENT, e.status());
      assertTrue(e.getMessage(), e.getMessage().contains(
          "dimension 0 is 2, the model was compiled for 1"));
      e = expectFailure(() -> m.runWithShapes(new long[][] {{1, 5}},
                                              (Object) new float[80]));
      assertTrue(e.getMessage(), e.getMessage().contains(
          "input 0 ('arg0') has rank 3: give that many dimensions"));
      e = expectFailure(() -> m.run((Object) new float[16]));
      assertTrue(e.getMessage(), e.getMessage().contains(
          "the model has dynamic dimensions"));
    }
  }
}
