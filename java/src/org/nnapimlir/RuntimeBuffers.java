package org.nnapimlir;

import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Direct buffers over the runtime's allocator (nnapi_rt_alloc): from 64 KiB
 * on they are shared memory, which NNAPI maps instead of copying at every
 * execution. The app's ({@link NnapiRuntime#allocateBuffer}) are freed once
 * unreachable; a run's own scratch buffers as soon as it returns.
 */
final class RuntimeBuffers {
  static {
    Model.loadNative();
  }

  private RuntimeBuffers() {}

  /** A buffer the app holds: its memory, freed once the buffer is gone. */
  private static final class Owner extends PhantomReference<ByteBuffer> {
    final long address;

    Owner(ByteBuffer buffer, long address) {
      super(buffer, collected);
      this.address = address;
    }
  }

  private static final ReferenceQueue<ByteBuffer> collected =
      new ReferenceQueue<ByteBuffer>();
  /** Keeps each Owner reachable until its buffer is collected. */
  private static final Set<Owner> owners =
      Collections.newSetFromMap(new ConcurrentHashMap<Owner, Boolean>());

  static ByteBuffer allocate(int bytes) {
    freeCollected();
    ByteBuffer b = nativeAllocate(bytes);
    owners.add(new Owner(b, nativeAddress(b)));
    return b.order(ByteOrder.nativeOrder());
  }

  /** A buffer for one run, added to {@code scratch} for {@link #free}. */
  static ByteBuffer scratch(int bytes, List<ByteBuffer> scratch) {
    ByteBuffer b = nativeAllocate(bytes).order(ByteOrder.nativeOrder());
    scratch.add(b);
    return b;
  }

  static void free(List<ByteBuffer> scratch) {
    for (ByteBuffer b : scratch)
      nativeFree(nativeAddress(b));
    scratch.clear();
  }

  /** Frees the memory of the app's buffers that were collected. */
  static void freeCollected() {
    Owner o;
    while ((o = (Owner) collected.poll()) != null) {
      owners.remove(o);
      nativeFree(o.address);
    }
  }

  private static native ByteBuffer nativeAllocate(int bytes);

  private static native long nativeAddress(ByteBuffer buffer);

  private static native void nativeFree(long address);
}
