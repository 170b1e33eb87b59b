package io.github.mpi4j.bench;

import java.nio.ByteBuffer;
import java.util.Arrays;
import mpi.Datatype;
import mpi.File;
import mpi.MPI;

/**
 * Collective write bandwidth through an interleaved view (bench/run.sh fileio), the Java twin of
 * bench/fileio_c.c: every rank's view takes its block of every stripe (a vector of bytes), and
 * each {@code writeAtAll} writes PER bytes a rank from a direct buffer or a byte array.
 *
 * <pre>FileBench DIR BLOCK PER ITERS direct|array [KEY=VALUE hints...]</pre>
 *
 * Prints "RESULT impl=java-BACKEND-KIND np=N block=B per=P MBps=X": all ranks' bytes over the
 * slowest rank's time, median of 5 runs of ITERS calls (page cache, no sync).
 */
public final class FileBench {
    private FileBench() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), np = MPI.COMM_WORLD.getSize();
        String dir = args[0];
        int block = Integer.parseInt(args[1]), per = Integer.parseInt(args[2]), iters = Integer.parseInt(args[3]);
        boolean direct = args.length < 5 || args[4].equals("direct");
        Object buf;
        if (direct) {
            ByteBuffer b = ByteBuffer.allocateDirect(per);
            for (int i = 0; i < per; i++) b.put(i, (byte) (rank + i));
            buf = b;
        } else {
            byte[] a = new byte[per];
            for (int i = 0; i < per; i++) a[i] = (byte) (rank + i);
            buf = a;
        }
        String path = dir + "/filebench-java.dat";
        mpi.Info info = new mpi.Info();
        for (int i = 5; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            info.set(kv[0], kv[1]);
        }
        Datatype ft = Datatype.createVector(per / block, block, block * np, MPI.BYTE);
        ft.commit();
        double[] times = new double[5];
        for (int run = 0; run < 5; run++) {
            File f = new File(MPI.COMM_WORLD, path, MPI.MODE_CREATE | MPI.MODE_WRONLY, info);
            f.setView((long) rank * block, MPI.BYTE, ft, "native");
            MPI.COMM_WORLD.barrier();
            double t0 = MPI.wtime();
            for (int it = 0; it < iters; it++) f.writeAtAll((long) it * per, buf, per, MPI.BYTE);
            double[] t = {MPI.wtime() - t0};
            double[] slowest = new double[1];
            MPI.COMM_WORLD.allReduce(t, slowest, 1, MPI.DOUBLE, MPI.MAX);
            times[run] = slowest[0];
            f.close();
            MPI.COMM_WORLD.barrier();
            if (rank == 0) java.nio.file.Files.deleteIfExists(java.nio.file.Paths.get(path));
            MPI.COMM_WORLD.barrier();
        }
        Arrays.sort(times);
        if (rank == 0) {
            System.out.printf("RESULT impl=java-%s-%s np=%d block=%d per=%d MBps=%.1f%n",
                    io.github.mpi4j.Mpi4j.backendName(), direct ? "direct" : "array", np, block, per,
                    (double) per * np * iters / times[2] / 1e6);
        }
        ft.free();
        MPI.Finalize();
    }
}
