package io.github.mpi4j.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A file written by one backend with a derived filetype view reads back identically with the
 * other (issue 11): {@link FileRoundTripProgram} writes under one launcher and reads under the
 * other, and the bytes on disk are checked here against the sequential reference (native-order
 * doubles, zeros in the gaps) in between. The fabric writes with two-phase collective buffering
 * (forced, one aggregator, small buffers) or with its defaults.
 */
class FileRoundTripTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "write {0}, read {1}, np={2} {3}")
    @CsvSource({
        "mpi4jrun, mpirun, 3, ''",
        "mpi4jrun, mpirun, 3, romio_cb_write=enable cb_nodes=1 cb_buffer_size=100",
        "mpirun, mpi4jrun, 3, romio_cb_read=enable cb_nodes=2 cb_buffer_size=64",
        "mpirun, mpi4jrun, 2, ''",
    })
    void roundTrip(String writer, String reader, int np, String hints) throws Exception {
        Requirements.assumeMpi(Jobs.Launcher.MPIRUN, "the round trip through the MPI backend");
        Path file = dir.resolve("roundtrip.dat");
        run(writer, np, "write", file, hints);
        byte[] disk = Files.readAllBytes(file);
        assertArrayEquals(reference(np), disk, "bytes written by " + writer + " vs the sequential reference");
        run(reader, np, "read", file, hints);
    }

    private static byte[] reference(int size) {
        int stride = FileRoundTripProgram.BLOCK * size + FileRoundTripProgram.GAP;
        int total = (FileRoundTripProgram.STRIPES - 1) * stride + FileRoundTripProgram.BLOCK * size;
        ByteBuffer b = ByteBuffer.allocate(8 * total).order(ByteOrder.nativeOrder());
        for (int i = 0; i < total; i++) b.putDouble(FileRoundTripProgram.value(i, size));
        return b.array();
    }

    private static void run(String launcher, int np, String mode, Path file, String hints) throws Exception {
        List<String> javaArgs = new ArrayList<>(List.of("-cp", Jobs.classpath(),
                FileRoundTripProgram.class.getName(), mode, file.toString()));
        for (String h : hints.trim().split("\\s+")) if (!h.isEmpty()) javaArgs.add(h);
        List<String> cmd = launcher.equals("mpirun") ? Jobs.mpirun(np, javaArgs, false)
                : Jobs.mpi4jrun(np, List.of(), javaArgs);
        Jobs.Result r = Jobs.run(cmd, null, 180);
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(0, count(r.output, "FAILED"), r.toString());
        for (int rank = 0; rank < np; rank++) {
            assertEquals(1, count(r.output, "FILE-ROUNDTRIP OK " + rank + " " + np), mode + " under " + launcher + "\n" + r);
        }
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) n++;
        return n;
    }
}
