package io.github.mpi4j.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.memory.HostMemory;
import io.github.mpi4j.testing.OffHeap;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What DeviceBuffer, CudaStream and CudaEvent do with a device, written once against the CUDA
 * runtime API: it runs against a real GPU, and against the test-only fake CUDA runtime (host
 * memory as device memory, streams that run their work only at synchronization points, so a
 * missing synchronize shows up as wrong data). Every expected value comes from the host data
 * the test wrote, never from the device.
 *
 * <p>Each public no-argument method is a test. {@link DeviceBufferTest} runs them in its JVM
 * (skipped with the reason when there is no device) and, when a CUDA library is named, in a
 * fresh JVM through {@link #main} ("@@SUITE name PASS|FAIL|SKIP ...").
 */
public class DeviceBufferSuite {
    static final String RESULT = "@@SUITE";

    private final Random random = new Random(42);

    private static float[] floats(Random r, int n) {
        float[] a = new float[n];
        for (int i = 0; i < n; i++) a[i] = r.nextFloat() * 1000 - 500;
        return a;
    }

    public void everyArrayTypeRoundTrips() {
        int n = 1001;
        try (DeviceBuffer d = DeviceBuffer.allocate(8L * n)) {
            byte[] b = new byte[n];
            random.nextBytes(b);
            d.copyFrom(b);
            byte[] b2 = new byte[n];
            d.copyTo(b2);
            assertArrayEquals(b, b2, "byte[]");

            short[] s = new short[n];
            char[] c = new char[n];
            int[] i = new int[n];
            long[] l = new long[n];
            double[] x = new double[n];
            boolean[] z = new boolean[n];
            for (int k = 0; k < n; k++) {
                s[k] = (short) random.nextInt();
                c[k] = (char) random.nextInt();
                i[k] = random.nextInt();
                l[k] = random.nextLong();
                x[k] = random.nextDouble();
                z[k] = random.nextBoolean();
            }
            short[] s2 = new short[n];
            d.copyFrom(s);
            d.copyTo(s2);
            assertArrayEquals(s, s2, "short[]");
            char[] c2 = new char[n];
            d.copyFrom(c);
            d.copyTo(c2);
            assertArrayEquals(c, c2, "char[]");
            int[] i2 = new int[n];
            d.copyFrom(i);
            d.copyTo(i2);
            assertArrayEquals(i, i2, "int[]");
            long[] l2 = new long[n];
            d.copyFrom(l);
            d.copyTo(l2);
            assertArrayEquals(l, l2, "long[]");
            float[] f = floats(random, n);
            float[] f2 = new float[n];
            d.copyFrom(f);
            d.copyTo(f2);
            assertArrayEquals(f, f2, "float[]");
            double[] x2 = new double[n];
            d.copyFrom(x);
            d.copyTo(x2);
            assertArrayEquals(x, x2, "double[]");
            boolean[] z2 = new boolean[n];
            d.copyFrom(z);
            d.copyTo(z2);
            assertArrayEquals(z, z2, "boolean[]");
            // The bytes on the device are the values' native representation: ints read back as bytes.
            d.copyFrom(new int[] {0x04030201});
            byte[] four = new byte[4];
            d.copyTo(four);
            assertArrayEquals(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? new byte[] {1, 2, 3, 4}
                    : new byte[] {4, 3, 2, 1}, four);
        }
    }

    public void offsetsAndLengthsCountElementsOfTheHostSide() {
        int[] src = new int[20];
        for (int k = 0; k < src.length; k++) src[k] = 1000 + k;
        try (DeviceBuffer d = DeviceBuffer.allocate(80)) {
            d.memset(0);
            d.copyFrom(src, 3, 5); // src[3..8) into the device's first 20 bytes
            int[] dst = new int[10];
            Arrays.fill(dst, -1);
            d.copyTo(dst, 2, 6); // the device's first 24 bytes into dst[2..8)
            assertArrayEquals(new int[] {-1, -1, 1003, 1004, 1005, 1006, 1007, 0, -1, -1}, dst);
        }
    }

    public void arraysLargerThanTheStagingBufferCrossItsChunks() {
        int n = 3 * (1 << 20) + 17; // 12 MiB of floats: more than the 4 MiB staging chunk, not a multiple
        float[] f = floats(random, n);
        try (DeviceBuffer d = DeviceBuffer.allocate(4L * n)) {
            d.copyFrom(f);
            float[] back = new float[n];
            d.copyTo(back);
            assertArrayEquals(f, back);
        }
    }

    public void copiesAreRightWhileTheGcMovesArrays() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread churn = new Thread(() -> {
            List<int[]> junk = new ArrayList<>();
            while (!stop.get()) {
                junk.add(new int[1 << 14]);
                if (junk.size() > 200) junk.clear();
                if (junk.isEmpty()) System.gc();
            }
        });
        churn.start();
        try (DeviceBuffer d = DeviceBuffer.allocate(4L * 50_000)) {
            for (int round = 0; round < 50; round++) {
                int[] a = new int[1 + random.nextInt(50_000)];
                for (int k = 0; k < a.length; k++) a[k] = round * 1_000_003 + k;
                d.copyFrom(a);
                int[] b = new int[a.length];
                d.copyTo(b);
                assertArrayEquals(a, b, "round " + round);
            }
        } finally {
            stop.set(true);
            churn.join(10_000);
        }
    }

    public void directAndHeapBuffersIgnoreTheirPosition() {
        FloatBuffer direct = ByteBuffer.allocateDirect(4 * 64).order(ByteOrder.nativeOrder()).asFloatBuffer();
        float[] f = floats(random, 64);
        direct.put(f);
        assertEquals(64, direct.position());
        try (DeviceBuffer d = DeviceBuffer.allocate(4 * 64)) {
            d.copyFrom(direct); // the whole buffer, from index 0
            float[] back = new float[64];
            d.copyTo(back);
            assertArrayEquals(f, back);
            IntBuffer heap = IntBuffer.allocate(8);
            d.copyFrom(new int[] {1, 2, 3, 4, 5, 6, 7, 8});
            d.copyTo(heap, 2, 3);
            assertArrayEquals(new int[] {0, 0, 1, 2, 3, 0, 0, 0}, heap.array());
        }
    }

    public void typedBuffersInTheWrongByteOrderAreRefused() {
        FloatBuffer bigEndian = ByteBuffer.allocateDirect(64).order(ByteOrder.BIG_ENDIAN).asFloatBuffer();
        if (ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN) return;
        try (DeviceBuffer d = DeviceBuffer.allocate(64)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.copyFrom(bigEndian));
            assertTrue(e.getMessage().contains("BIG_ENDIAN"), e.getMessage());
        }
    }

    public void asyncCopiesAreOrderedOnTheirStream() {
        int n = 4096;
        ByteBuffer in = ByteBuffer.allocateDirect(4 * n).order(ByteOrder.nativeOrder());
        ByteBuffer out = ByteBuffer.allocateDirect(4 * n).order(ByteOrder.nativeOrder());
        for (int k = 0; k < n; k++) in.putInt(4 * k, 7 * k + 1);
        try (DeviceBuffer d = DeviceBuffer.allocate(4L * n); CudaStream s = CudaStream.create(d.device())) {
            d.memsetAsync(0, 0, d.size(), s);
            d.copyFromAsync(in, s);
            d.copyToAsync(out, s);
            s.synchronize();
            for (int k = 0; k < n; k++) assertEquals(7 * k + 1, out.getInt(4 * k), "element " + k);
            assertTrue(s.query(), "an idle stream after synchronize");
        }
    }

    public void eventsOrderOneStreamAfterAnother() {
        int n = 1 << 16;
        ByteBuffer out = ByteBuffer.allocateDirect(n);
        try (DeviceBuffer d = DeviceBuffer.allocate(n); CudaStream first = CudaStream.create(d.device());
             CudaStream second = CudaStream.create(d.device()); CudaEvent done = CudaEvent.create(d.device())) {
            d.memsetAsync(0x5a, 0, n, first);
            done.record(first);
            second.waitEvent(done);
            d.copyToAsync(out, second);
            second.synchronize();
            for (int k = 0; k < n; k++) assertEquals((byte) 0x5a, out.get(k), "byte " + k);
            done.synchronize();
            assertTrue(done.query());
            try (CudaEvent recorded = second.record()) {
                recorded.synchronize();
                assertTrue(recorded.query());
            }
        }
    }

    public void deviceToDeviceAndSlicesShareMemory() {
        int[] a = new int[64];
        for (int k = 0; k < a.length; k++) a[k] = k * k;
        try (DeviceBuffer x = DeviceBuffer.allocate(256); DeviceBuffer y = DeviceBuffer.allocate(256)) {
            x.copyFrom(a);
            y.memset(0);
            y.slice(16, 32).copyFrom(x, 64, 32); // ints 16..24 of x into ints 4..12 of y
            int[] back = new int[64];
            y.copyTo(back);
            int[] expected = new int[64];
            for (int k = 4; k < 12; k++) expected[k] = (k + 12) * (k + 12);
            assertArrayEquals(expected, back);
            x.copyTo(y);
            y.copyTo(back);
            assertArrayEquals(a, back);
            DeviceBuffer s = x.slice(8, 16);
            assertEquals(x.address() + 8, s.address());
            assertEquals(16, s.size());
            assertEquals(x.device(), s.device());
        }
    }

    public void hostMemoryByAddress() {
        try (OffHeap h = new OffHeap(64, (byte) 3); DeviceBuffer d = DeviceBuffer.allocate(64)) {
            HostMemory m = h.memory();
            d.copyFrom(m);
            byte[] back = new byte[64];
            d.copyTo(back);
            byte[] expected = new byte[64];
            Arrays.fill(expected, (byte) 3);
            assertArrayEquals(expected, back);
            d.memset(9, 8, 8);
            d.copyTo(m, 4, 32); // device bytes 0..32 into host bytes 4..36: bytes 12..20 are now 9
            for (int k = 0; k < 16; k++) {
                assertEquals(k == 3 || k == 4 ? 0x09090909 : 0x03030303, h.getInt(k), "host int " + k);
            }
        }
    }

    public void cudaTellsDeviceMemoryFromHostMemory() {
        try (DeviceBuffer d = DeviceBuffer.allocate(256); OffHeap h = new OffHeap(256, (byte) 0)) {
            assertEquals(d.device(), Cuda.deviceOf(d.address()));
            assertEquals(d.device(), Cuda.deviceOf(d.slice(100, 8).address()));
            assertEquals(io.github.mpi4j.memory.NativeMemory.HOST, Cuda.deviceOf(h.address));
        }
        assertThrows(IllegalArgumentException.class, () -> Cuda.deviceOf(0));
    }

    public void memsetWritesBytes() {
        try (DeviceBuffer d = DeviceBuffer.allocate(32)) {
            d.memset(0xff);
            d.memset(-128, 4, 4);
            byte[] back = new byte[32];
            d.copyTo(back);
            for (int k = 0; k < 32; k++) assertEquals(k >= 4 && k < 8 ? (byte) -128 : (byte) -1, back[k], "byte " + k);
            assertThrows(IllegalArgumentException.class, () -> d.memset(256));
            assertThrows(IndexOutOfBoundsException.class, () -> d.memset(0, 30, 4));
        }
    }

    public void outOfRangeIsRefusedBeforeAnythingMoves() {
        try (DeviceBuffer d = DeviceBuffer.allocate(16)) {
            d.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> d.copyFrom(new int[5]));
            assertTrue(e.getMessage().contains("20 bytes do not fit"), e.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> d.copyTo(new int[8], 6, 3));
            assertThrows(IndexOutOfBoundsException.class, () -> d.copyFrom(new int[8], -1, 2));
            assertThrows(IndexOutOfBoundsException.class, () -> d.slice(8, 9));
            assertThrows(IllegalArgumentException.class, () -> d.copyFrom((int[]) null));
            byte[] back = new byte[16];
            d.copyTo(back);
            assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, back, "untouched");
        }
    }

    public void useAfterCloseThrowsAndSlicesDieWithTheirParent() {
        DeviceBuffer d = DeviceBuffer.allocate(64);
        DeviceBuffer s = d.slice(0, 32);
        s.close(); // a slice's close leaves the parent usable
        assertTrue(s.isClosed());
        d.copyFrom(new byte[64]);
        DeviceBuffer t = d.slice(32, 32);
        d.close();
        d.close(); // idempotent
        assertTrue(d.isClosed() && t.isClosed());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.copyTo(new byte[4]));
        assertTrue(e.getMessage().contains("slice of a closed buffer"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> d.copyTo(new byte[4]));
        assertThrows(IllegalStateException.class, d::address);
        assertThrows(IllegalStateException.class, () -> d.slice(0, 1));
        assertThrows(IllegalStateException.class, () -> s.memset(0));
    }

    public void closedStreamsAndEventsThrow() {
        CudaStream s = CudaStream.create();
        CudaEvent e = CudaEvent.create(s.device());
        s.close();
        e.close();
        assertThrows(IllegalStateException.class, s::synchronize);
        assertThrows(IllegalStateException.class, () -> e.record(CudaStream.wrap(0, s.device())));
        try (DeviceBuffer d = DeviceBuffer.allocate(8)) {
            assertThrows(IllegalStateException.class, () -> d.memsetAsync(0, 0, 8, s));
        }
    }

    public void arraysAreNotAcceptedAsynchronously() {
        try (DeviceBuffer d = DeviceBuffer.allocate(16); CudaStream s = CudaStream.create(d.device())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> d.copyFromAsync(IntBuffer.allocate(4), s));
            assertTrue(e.getMessage().contains("heap buffer"), e.getMessage());
        }
    }

    public void theDeviceIsSetOnEveryThread() throws Exception {
        int devices = Cuda.deviceCount();
        int last = devices - 1;
        try (DeviceBuffer d = DeviceBuffer.allocate(4096, last)) {
            assertEquals(last, d.device());
            // Another thread whose current device was never set uses the buffer.
            Throwable[] failure = new Throwable[1];
            Thread t = new Thread(() -> {
                try {
                    int[] a = new int[1024];
                    for (int k = 0; k < a.length; k++) a[k] = k ^ 0x55;
                    d.copyFrom(a);
                    int[] b = new int[1024];
                    d.copyTo(b);
                    assertArrayEquals(a, b);
                } catch (Throwable x) {
                    failure[0] = x;
                }
            });
            t.start();
            t.join(60_000);
            assertFalse(t.isAlive(), "copy thread finished");
            if (failure[0] != null) throw new AssertionError(failure[0]);
        }
    }

    /** The test methods, in a stable order. */
    public static List<Method> tests() {
        List<Method> out = new ArrayList<>();
        for (Method m : DeviceBufferSuite.class.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 0) {
                out.add(m);
            }
        }
        out.sort(Comparator.comparing(Method::getName));
        return out;
    }

    /** Runs one test; rethrows what it threw. */
    static void run(Method m) throws Throwable {
        try {
            m.invoke(new DeviceBufferSuite());
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Every test in this JVM, one result line each; exit code 1 if any failed. */
    public static void main(String[] args) {
        boolean failed = false;
        String reason = Cuda.deviceCount() == 0 ? Cuda.unavailableReason() : null;
        for (Method m : tests()) {
            if (reason != null) {
                System.out.println(RESULT + " " + m.getName() + " SKIP " + reason);
                continue;
            }
            try {
                run(m);
                System.out.println(RESULT + " " + m.getName() + " PASS");
            } catch (Throwable t) {
                failed = true;
                System.out.println(RESULT + " " + m.getName() + " FAIL " + t.toString().replace('\n', ' '));
                t.printStackTrace(System.out);
            }
        }
        System.exit(failed ? 1 : 0);
    }
}
