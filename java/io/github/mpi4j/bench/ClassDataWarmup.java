package io.github.mpi4j.bench;

import java.nio.DoubleBuffer;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * Loads mpi4j's classes so that the launcher's class-data archive
 * ({@code io.github.mpi4j.launch.ClassDataArchive}) can archive them: first what a job's ranks
 * typically run, in a world of one (start-up, point-to-point blocking and not with arrays and
 * direct buffers, the common collectives, shut-down), then every other class of the jar (loaded,
 * not initialized: the transports and paths a world of one does not take). Its output is
 * discarded. A program of the API, so it lives with the benchmarks (the layering rule).
 */
public final class ClassDataWarmup {
    private ClassDataWarmup() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int me = w.getRank();
        double[] a = new double[1024];
        double[] b = new double[1024];
        DoubleBuffer d = MPI.newDoubleBuffer(1024);
        Request r = w.iRecv(b, b.length, MPI.DOUBLE, me, 1);
        w.send(a, a.length, MPI.DOUBLE, me, 1);
        r.waitFor();
        Request[] rs = {w.iRecv(d, 1024, MPI.DOUBLE, me, 2), w.iSend(a, 1024, MPI.DOUBLE, me, 2)};
        Request.waitAll(rs);
        w.bcast(a, a.length, MPI.DOUBLE, 0);
        w.allReduce(a, b, a.length, MPI.DOUBLE, MPI.SUM);
        w.allReduce(d, 1024, MPI.DOUBLE, MPI.MAX);
        w.reduce(a, b, a.length, MPI.DOUBLE, MPI.SUM, 0);
        w.allGather(a, 16, MPI.DOUBLE, b, 16, MPI.DOUBLE);
        w.barrier();
        Intracomm dup = w.dup();
        dup.free();
        System.out.println("warm " + me + " " + MPI.wtime());
        MPI.Finalize();
        loadEveryClass();
    }

    private static void loadEveryClass() throws Exception {
        ClassLoader loader = ClassDataWarmup.class.getClassLoader();
        Path jar = Path.of(ClassDataWarmup.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (JarFile jf = new JarFile(jar.toFile())) {
            for (JarEntry e : java.util.Collections.list(jf.entries())) {
                String n = e.getName();
                if (!n.endsWith(".class") || n.startsWith("META-INF/") || n.equals("module-info.class")) continue;
                try {
                    Class.forName(n.substring(0, n.length() - 6).replace('/', '.'), false, loader);
                } catch (LinkageError | ClassNotFoundException skipped) {
                    // a class of an optional part whose dependencies are absent: not archived
                }
            }
        }
    }
}
