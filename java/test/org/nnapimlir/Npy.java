package org.nnapimlir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/** A little-endian float32 .npy file (numpy's format, version 1). */
final class Npy {
  final long[] shape;
  final float[] data;

  private Npy(long[] shape, float[] data) {
    this.shape = shape;
    this.data = data;
  }

  static Npy read(String path) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(Paths.get(path)))
                       .order(ByteOrder.LITTLE_ENDIAN);
    if (b.get(0) != (byte) 0x93 || b.get(6) != 1)
      throw new IOException(path + ": not a version-1 .npy file");
    int headerLength = b.getShort(8) & 0xffff;
    String header = new String(b.array(), 10, headerLength,
                               StandardCharsets.ISO_8859_1);
    if (!header.contains("'descr': '<f4'") || header.contains("True"))
      throw new IOException(path + ": not little-endian float32 in C order");
    String dims = header.substring(header.indexOf('(') + 1,
                                   header.indexOf(')'));
    String[] parts = dims.split(",");
    int rank = 0;
    for (String p : parts)
      if (!p.trim().isEmpty())
        ++rank;
    long[] shape = new long[rank];
    int k = 0;
    long count = 1;
    for (String p : parts)
      if (!p.trim().isEmpty()) {
        shape[k] = Long.parseLong(p.trim());
        count *= shape[k++];
      }
    b.position(10 + headerLength);
    float[] data = new float[(int) count];
    b.asFloatBuffer().get(data);
    return new Npy(shape, data);
  }
}
