package io.github.mpi4j.api;

import mpi.Datatype;
import mpi.File;
import mpi.Info;
import mpi.MPI;
import mpi.Status;

/**
 * One side of the cross-backend round trip ({@link FileRoundTripTest}): {@code write PATH} or
 * {@code read PATH}, then hints as KEY=VALUE. Every rank's view is a derived filetype (its block
 * of every stripe, with a gap nobody writes after each stripe); writing puts values worked out
 * from rank and position there collectively, reading gets them back collectively and checks them.
 * Prints "FILE-ROUNDTRIP OK rank size" per rank, or FAILED with the reason.
 */
public final class FileRoundTripProgram {
    static final int STRIPES = 7, BLOCK = 5, GAP = 3;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        try {
            boolean write = args[0].equals("write");
            Info info = new Info();
            for (int i = 2; i < args.length; i++) {
                String[] kv = args[i].split("=", 2);
                info.set(kv[0], kv[1]);
            }
            Datatype ft = Datatype.createVector(STRIPES, BLOCK, BLOCK * size + GAP, MPI.DOUBLE);
            ft.commit();
            File f = new File(MPI.COMM_WORLD, args[1], write ? MPI.MODE_CREATE | MPI.MODE_WRONLY : MPI.MODE_RDONLY,
                    info);
            f.setView(8L * BLOCK * rank, MPI.DOUBLE, ft, "native");
            double[] mine = new double[STRIPES * BLOCK];
            for (int k = 0; k < STRIPES; k++) {
                for (int j = 0; j < BLOCK; j++) {
                    int at = k * (BLOCK * size + GAP) + rank * BLOCK + j;
                    mine[k * BLOCK + j] = value(at, size);
                }
            }
            String failure = null;
            if (write) {
                Status s = f.writeAll(mine, mine.length, MPI.DOUBLE);
                if (s.getCount(MPI.DOUBLE) != mine.length) failure = "wrote " + s.getCount(MPI.DOUBLE);
            } else {
                double[] back = new double[mine.length];
                Status s = f.readAll(back, back.length, MPI.DOUBLE);
                if (s.getCount(MPI.DOUBLE) != mine.length) failure = "read " + s.getCount(MPI.DOUBLE);
                for (int i = 0; failure == null && i < back.length; i++) {
                    if (back[i] != mine[i]) failure = "double " + i + " is " + back[i] + ", expected " + mine[i];
                }
            }
            f.close();
            ft.free();
            System.out.println(failure == null ? "FILE-ROUNDTRIP OK " + rank + " " + size
                    : "FILE-ROUNDTRIP FAILED " + rank + ": " + failure);
        } catch (RuntimeException e) {
            System.out.println("FILE-ROUNDTRIP FAILED " + rank + ": " + e);
        }
        MPI.Finalize();
    }

    /** The double at file position {@code at} (in doubles), 0 in the gaps. */
    static double value(int at, int size) {
        int stride = BLOCK * size + GAP;
        int j = at % stride;
        return j < BLOCK * size ? (j / BLOCK) * 1e6 + at + 0.25 : 0;
    }
}
