package io.github.mpi4j.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.nativeload.NativeLoader;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import org.junit.jupiter.api.Test;

/**
 * Large copies through memcpy (NativeCopy, used by BufAccess and mpi.Win): every kind of memory
 * at odd offsets and lengths against an element-by-element reference, a typed buffer of the
 * other byte order (converted in Java, never copied raw), and ranges outside the memory refused
 * before any byte moves.
 */
class NativeCopyTest {
    private static final int N = NativeCopy.NATIVE_FROM + 24; // above the threshold, not a power of two

    private static ByteBuffer ring(int bytes) {
        return ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
    }

    @Test
    void theLibraryIsLoadedSoMemcpyIsTested() {
        assertTrue(NativeLoader.load("mpi4j_dl"), "libmpi4j_dl must load here: " + NativeLoader.detail("mpi4j_dl"));
    }

    @Test
    void intArrayThroughARingAndBack() {
        int[] a = new int[N / 4 + 10];
        for (int i = 0; i < a.length; i++) a[i] = i * 7919 - 5;
        ByteBuffer r = ring(N + 64);
        BufAccess.get(new Buf(a, BaseKind.INT, 3, a.length - 3), 8, r, 12, N); // from element 5, to byte 12
        for (int i = 0; i < N / 4; i++) assertEquals(a[5 + i], r.getInt(12 + 4 * i), "ring int " + i);
        int[] back = new int[a.length];
        BufAccess.put(r, 12, new Buf(back, BaseKind.INT, 1, back.length - 1), 4, N); // to element 2
        for (int i = 0; i < back.length; i++) {
            int want = i >= 2 && i < 2 + N / 4 ? a[5 + i - 2] : 0;
            assertEquals(want, back[i], "array int " + i);
        }
    }

    @Test
    void byteArraysAndDirectBuffersAtOddOffsets() {
        byte[] a = new byte[N + 9];
        for (int i = 0; i < a.length; i++) a[i] = (byte) (i * 31 + 1);
        ByteBuffer r = ring(N + 7);
        BufAccess.get(new Buf(a, BaseKind.BYTE, 2, a.length - 2), 3, r, 7, N);
        for (int i = 0; i < N; i++) assertEquals(a[5 + i], r.get(7 + i), "ring byte " + i);
        ByteBuffer d = ring(N + 11);
        BufAccess.put(r, 7, new Buf(d, BaseKind.BYTE, 0, d.capacity()), 11, N);
        for (int i = 0; i < N; i++) assertEquals(a[5 + i], d.get(11 + i), "direct byte " + i);
        ByteBuffer e = ring(N);
        NativeCopy.copy(e, 0, d, 11, N);
        for (int i = 0; i < N; i++) assertEquals(a[5 + i], e.get(i), "copied byte " + i);
    }

    @Test
    void typedBuffersOfEitherByteOrderKeepTheirValues() {
        int n = N / 8;
        for (ByteOrder order : new ByteOrder[] {ByteOrder.nativeOrder(), ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            DoubleBuffer v = ByteBuffer.allocateDirect(8 * n).order(order).asDoubleBuffer();
            for (int i = 0; i < n; i++) v.put(i, i * 0.25 - 3);
            ByteBuffer r = ring(8 * n);
            BufAccess.get(new Buf(v, BaseKind.DOUBLE, 0, n), 0, r, 0, 8 * n);
            for (int i = 0; i < n; i++) assertEquals(i * 0.25 - 3, r.getDouble(8 * i), order + " double " + i);
            DoubleBuffer w = ByteBuffer.allocateDirect(8 * n).order(order).asDoubleBuffer();
            BufAccess.put(r, 0, new Buf(w, BaseKind.DOUBLE, 0, n), 0, 8 * n);
            for (int i = 0; i < n; i++) assertEquals(i * 0.25 - 3, w.get(i), order + " back " + i);
        }
    }

    /** BufAccess.copy between two typed direct buffers of one kind: values kept whatever the orders. */
    @Test
    void typedDirectBuffersCopyIntoEachOtherInBulk() {
        ByteOrder other = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        int n = 5000;
        for (ByteOrder from : new ByteOrder[] {ByteOrder.nativeOrder(), other}) {
            for (ByteOrder to : new ByteOrder[] {ByteOrder.nativeOrder(), other}) {
                DoubleBuffer s = ByteBuffer.allocateDirect(8 * n).order(from).asDoubleBuffer();
                DoubleBuffer d = ByteBuffer.allocateDirect(8 * n).order(to).asDoubleBuffer();
                for (int i = 0; i < n; i++) s.put(i, i * 1.25 - 3);
                // Elements 7.. of the source into elements 11.. of the destination.
                BufAccess.copy(new Buf(s, BaseKind.DOUBLE, 0, n), 56, new Buf(d, BaseKind.DOUBLE, 0, n), 88, 8L * 4000);
                String what = from + " into " + to;
                assertEquals(0.0, d.get(10), what + ": element before the range");
                for (int i = 0; i < 4000; i++) assertEquals((7 + i) * 1.25 - 3, d.get(11 + i), what + ", element " + i);
                assertEquals(0.0, d.get(4011), what + ": element after the range");
            }
        }
    }

    /**
     * SharedStores streaming (non-temporal stores into the fabric's rings and slots), and one
     * choosing by timing: the same bytes as a plain copy at
     * every alignment of the destination and lengths around the 64-byte loop, nothing written
     * outside the range; arrays and direct buffers take the native path, small copies and
     * buffers of the other byte order the Java one.
     */
    @Test
    void streamingCopiesIntoSharedMemoryWriteExactlyTheirRange() {
        byte[] a = new byte[N + 200];
        for (int i = 0; i < a.length; i++) a[i] = (byte) (i * 37 + 11);
        ByteBuffer direct = ring(a.length);
        direct.put(0, a);
        Buf fromArray = new Buf(a, BaseKind.BYTE, 0, a.length), fromDirect = new Buf(direct, BaseKind.BYTE, 0, a.length);
        SharedStores streamer = new SharedStores(1), chooser = new SharedStores(0);
        for (Buf src : new Buf[] {fromArray, fromDirect}) {
          for (SharedStores stores : new SharedStores[] {streamer, chooser}) {
            for (int at = 0; at < 17; at++) {
                for (int extra : new int[] {0, 1, 15, 63, 64, 65, SharedStores.CHOSEN_FROM - N, SharedStores.CHOSEN_FROM + 7 - N}) {
                    int n = N + extra, srcOff = at % 5;   // also at the chooser's floor, under the native one
                    ByteBuffer slot = ring(n + 64);
                    for (int i = 0; i < slot.capacity(); i++) slot.put(i, (byte) -1);
                    stores.copy(src, srcOff, slot, at, n);
                    String what = (src == fromArray ? "array" : "direct") + (stores == streamer ? " streamed" : " chosen")
                            + " to byte " + at + ", " + n + " bytes";
                    for (int i = 0; i < at; i++) assertEquals(-1, slot.get(i), what + ": byte " + i + " before");
                    for (int i = 0; i < n; i++) assertEquals(a[srcOff + i], slot.get(at + i), what + ": byte " + i);
                    for (int i = at + n; i < slot.capacity(); i++) assertEquals(-1, slot.get(i), what + ": byte " + i + " after");
                }
            }
          }
        }
        assertFalse(Double.isNaN(chooser.rates()[0]) || Double.isNaN(chooser.rates()[1]), "the chooser timed both kinds");
        assertTrue(NativeCopy.tryCopyAnySize(fromArray, 0, ring(N), 0, N, true, true), "arrays stream natively");
        assertTrue(NativeCopy.tryCopyAnySize(fromDirect, 0, ring(N), 0, N, true, true), "direct buffers stream natively");
        // Below the native threshold, and a typed buffer of the other order: Java copies, same values.
        ByteBuffer slot = ring(64);
        streamer.copy(fromArray, 3, slot, 5, 40);
        for (int i = 0; i < 40; i++) assertEquals(a[3 + i], slot.get(5 + i), "small copy byte " + i);
        ByteOrder other = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        int n = N / 8;
        DoubleBuffer v = ByteBuffer.allocateDirect(8 * n).order(other).asDoubleBuffer();
        for (int i = 0; i < n; i++) v.put(i, i * 0.5 + 1);
        ByteBuffer r = ring(8 * n);
        streamer.copy(new Buf(v, BaseKind.DOUBLE, 0, n), 0, r, 0, 8 * n);
        for (int i = 0; i < n; i++) assertEquals(i * 0.5 + 1, r.getDouble(8 * i), "other-order double " + i);
    }

    @Test
    void rangesOutsideTheMemoryAreRefusedBeforeAnythingMoves() {
        byte[] a = new byte[N];
        ByteBuffer r = ring(N);
        for (int i = 0; i < N; i++) r.put(i, (byte) 9);
        Buf small = new Buf(a, BaseKind.BYTE, 0, N);
        assertThrows(IndexOutOfBoundsException.class, () -> NativeCopy.tryCopy(small, 1, r, 0, N, false));
        assertThrows(IndexOutOfBoundsException.class, () -> NativeCopy.tryCopy(small, 0, r, 1, N, true));
        assertThrows(IndexOutOfBoundsException.class, () -> NativeCopy.copy(ring(N), 0, r, 8, N));
        for (int i = 0; i < N; i++) assertEquals(0, a[i], "array byte " + i + " untouched");
        for (int i = 0; i < N; i++) assertEquals(9, r.get(i), "ring byte " + i + " untouched");
    }
}
