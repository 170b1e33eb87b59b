package io.github.mpi4j.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.mpi4j.testing.OffHeap;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A synchronous copy into a {@link DeviceBuffer} is complete on return, also for work queued
 * next on a non-blocking stream (as NCCL's are): CUDA's {@code cudaMemcpy} device to device, and
 * from pageable host memory, may return while the copy still waits on the legacy default stream,
 * which non-blocking streams do not wait for, so mpi4j synchronizes that stream after them.
 *
 * <p>Each public no-argument method is a test: it copies into device memory and at once reads
 * the destination through {@code copyToAsync} on a non-blocking {@link CudaStream}. Meant for the
 * fake CUDA runtime with {@code FAKE_GPU_LAG_MS=-1}, which defers exactly those copies until a
 * synchronization, so a missing one shows as the destination's old bytes ({@link CudaSyncCopyTest}
 * runs it so, through {@link #main}: "@@SYNCCOPY name PASS|FAIL|SKIP ..."). Expected values are
 * computed here from the element index, never read from the device.
 */
public class CudaSyncCopySuite {
    static final String RESULT = "@@SYNCCOPY";
    private static final int N = 1000;
    /** The byte the destination holds before each copy: distinct from every expected value's bytes. */
    private static final int OLD = 0x11;

    private static int expected(int i, int salt) {
        return 1_000_003 * salt + 7 * i + 1;
    }

    private static int[] expectedInts(int salt) {
        int[] a = new int[N];
        for (int i = 0; i < N; i++) a[i] = expected(i, salt);
        return a;
    }

    private static IntBuffer directInts(int n) {
        return ByteBuffer.allocateDirect(4 * n).order(ByteOrder.nativeOrder()).asIntBuffer();
    }

    /** What {@code dst} holds as seen by a non-blocking stream's copy, queued right away. */
    private static int[] readOnNonBlockingStream(DeviceBuffer dst) {
        IntBuffer out = directInts(N);
        try (CudaStream s = CudaStream.create(dst.device())) {
            dst.copyToAsync(out, s);
            s.synchronize();
        }
        int[] got = new int[N];
        out.get(0, got);
        return got;
    }

    private static DeviceBuffer oldContents(int device) {
        DeviceBuffer d = DeviceBuffer.allocate(4L * N, device);
        d.memset(OLD);
        return d;
    }

    public void deviceToDevice() {
        int[] want = expectedInts(1);
        try (DeviceBuffer src = DeviceBuffer.allocate(4L * N); DeviceBuffer dst = oldContents(0)) {
            src.copyFrom(want);
            dst.copyFrom(src);
            assertArrayEquals(want, readOnNonBlockingStream(dst), "device to device, read on a non-blocking stream");
        }
    }

    public void betweenTwoDevices() {
        assumeTrue(Cuda.deviceCount() >= 2, "one device only");
        int[] want = expectedInts(2);
        try (DeviceBuffer src = DeviceBuffer.allocate(4L * N, 0); DeviceBuffer dst = oldContents(1)) {
            src.copyFrom(want);
            dst.copyFrom(src);
            assertArrayEquals(want, readOnNonBlockingStream(dst), "device 0 to device 1, read on a non-blocking stream");
        }
    }

    public void fromADirectBuffer() {
        int[] want = expectedInts(3);
        IntBuffer src = directInts(N);
        src.put(0, want);
        try (DeviceBuffer dst = oldContents(0)) {
            dst.copyFrom(src);
            src.put(0, new int[N]); // a copy complete on return no longer needs its source
            assertArrayEquals(want, readOnNonBlockingStream(dst), "from a direct buffer, read on a non-blocking stream");
        }
    }

    public void fromOffHeapHostMemory() {
        int[] want = expectedInts(4);
        try (OffHeap h = new OffHeap(4L * N, (byte) 0); DeviceBuffer dst = oldContents(0)) {
            for (int i = 0; i < N; i++) h.putInt(i, want[i]);
            dst.copyFrom(h.memory());
            for (int i = 0; i < N; i++) h.putInt(i, 0);
            assertArrayEquals(want, readOnNonBlockingStream(dst), "from malloc'ed host memory, read on a non-blocking stream");
        }
    }

    public void fromAHeapArray() {
        int[] want = expectedInts(5);
        int[] src = want.clone();
        try (DeviceBuffer dst = oldContents(0)) {
            dst.copyFrom(src);
            java.util.Arrays.fill(src, 0);
            assertArrayEquals(want, readOnNonBlockingStream(dst), "from a Java array, read on a non-blocking stream");
        }
    }

    /** The test methods, in name order. */
    static List<Method> tests() {
        List<Method> ms = new ArrayList<>();
        for (Method m : CudaSyncCopySuite.class.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 0) {
                ms.add(m);
            }
        }
        ms.sort(Comparator.comparing(Method::getName));
        return ms;
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
                m.invoke(new CudaSyncCopySuite());
                System.out.println(RESULT + " " + m.getName() + " PASS");
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof org.opentest4j.TestAbortedException) {
                    System.out.println(RESULT + " " + m.getName() + " SKIP " + e.getCause().getMessage());
                    continue;
                }
                failed = true;
                System.out.println(RESULT + " " + m.getName() + " FAIL " + e.getCause().toString().replace('\n', ' '));
                e.getCause().printStackTrace(System.out);
            } catch (ReflectiveOperationException e) {
                failed = true;
                System.out.println(RESULT + " " + m.getName() + " FAIL " + e);
            }
        }
        System.exit(failed ? 1 : 0);
    }
}
