package io.github.mpi4j.fileio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.mpi4j.buffer.HostViews;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runs of a file access moved by pwrite/pread in C ({@link NativeFileIo}), against a byte
 * array that models the file: random runs from direct and heap buffers (an array offset
 * included), reads cut by the end of the file, and the errors.
 */
class NativeFileIoTest {
    @TempDir
    Path dir;

    @BeforeEach
    void library() {
        assumeTrue(HostViews.available(), "libmpi4j_dl is not loaded: " + HostViews.unavailableReason());
    }

    /** Runs of random lengths at random, non-overlapping positions in {@code [0, room)}, as pairs. */
    private static long[] randomRuns(Random rnd, int count, int room) {
        long[] runs = new long[2 * count];
        int slot = room / count;
        for (int i = 0; i < count; i++) {
            int len = 1 + rnd.nextInt(slot / 2);
            runs[2 * i] = (long) i * slot + rnd.nextInt(slot - len);
            runs[2 * i + 1] = len;
        }
        // Out of file order, as a view whose blocks go backwards gives them.
        for (int i = count - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            long p = runs[2 * i], l = runs[2 * i + 1];
            runs[2 * i] = runs[2 * j];
            runs[2 * i + 1] = runs[2 * j + 1];
            runs[2 * j] = p;
            runs[2 * j + 1] = l;
        }
        return runs;
    }

    private static long total(long[] runs) {
        long t = 0;
        for (int i = 1; i < runs.length; i += 2) t += runs[i];
        return t;
    }

    @Test
    void writesEveryRunFromDirectAndHeapBuffers() throws IOException {
        Random rnd = new Random(11);
        int room = 1 << 20;
        byte[] model = new byte[room];
        Path file = dir.resolve("runs.dat");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            int fd = NativeFileIo.descriptorOf(ch);
            assertTrue(fd >= 0, "no descriptor for the channel");
            for (int round = 0; round < 6; round++) {
                long[] runs = randomRuns(rnd, 1 + rnd.nextInt(40), room);
                int n = (int) total(runs);
                byte[] data = new byte[n];
                rnd.nextBytes(data);
                ByteBuffer from;
                if (round % 2 == 0) {
                    from = ByteBuffer.allocateDirect(n).put(data).clear();
                } else {
                    // A heap slice: its bytes start 7 into the array.
                    byte[] backing = new byte[n + 7];
                    System.arraycopy(data, 0, backing, 7, n);
                    from = ByteBuffer.wrap(backing, 7, n).slice();
                }
                assertEquals(n, NativeFileIo.runs(fd, from, runs, runs.length / 2, true));
                for (int i = 0, at = 0; i < runs.length; i += 2) {
                    System.arraycopy(data, at, model, (int) runs[i], (int) runs[i + 1]);
                    at += (int) runs[i + 1];
                }
            }
        }
        byte[] onDisk = Files.readAllBytes(file);
        byte[] expected = Arrays.copyOf(model, onDisk.length);
        assertArrayEquals(expected, onDisk);
    }

    @Test
    void readsStopAtTheRunTheEndOfTheFileCuts() throws IOException {
        byte[] content = new byte[10_000];
        new Random(5).nextBytes(content);
        Path file = dir.resolve("read.dat");
        Files.write(file, content);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            int fd = NativeFileIo.descriptorOf(ch);
            // 100 bytes at 9000, 500 at 200, 2000 at 9900 (only 100 exist), 50 at 0 (never reached).
            long[] runs = {9000, 100, 200, 500, 9900, 2000, 0, 50};
            for (boolean direct : new boolean[] {true, false}) {
                ByteBuffer into = direct ? ByteBuffer.allocateDirect(2650) : ByteBuffer.allocate(2650);
                assertEquals(100 + 500 + 100, NativeFileIo.runs(fd, into, runs, 4, false));
                byte[] got = new byte[700];
                into.get(0, got);
                byte[] expected = new byte[700];
                System.arraycopy(content, 9000, expected, 0, 100);
                System.arraycopy(content, 200, expected, 100, 500);
                System.arraycopy(content, 9900, expected, 600, 100);
                assertArrayEquals(expected, got, direct ? "direct" : "heap");
            }
        }
    }

    @Test
    void aWriteThroughAReadOnlyDescriptorIsAnIoException() throws IOException {
        Path file = dir.resolve("ro.dat");
        Files.write(file, new byte[64]);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            int fd = NativeFileIo.descriptorOf(ch);
            IOException e = assertThrows(IOException.class,
                    () -> NativeFileIo.runs(fd, ByteBuffer.allocateDirect(8), new long[] {0, 8}, 1, true));
            assertTrue(e.getMessage().startsWith("pwrite"), e.getMessage());
        }
        assertArrayEquals(new byte[64], Files.readAllBytes(file));
    }

    @Test
    void runsLongerThanTheBufferAreRefusedBeforeAnyIo() throws IOException {
        Path file = dir.resolve("bounds.dat");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            int fd = NativeFileIo.descriptorOf(ch);
            assertThrows(IndexOutOfBoundsException.class,
                    () -> NativeFileIo.runs(fd, ByteBuffer.allocate(10), new long[] {0, 8, 100, 8}, 2, true));
            assertThrows(IndexOutOfBoundsException.class,
                    () -> NativeFileIo.runs(fd, ByteBuffer.allocate(10), new long[] {0, 8}, 2, true));
        }
        assertEquals(0, Files.size(file));
    }
}
