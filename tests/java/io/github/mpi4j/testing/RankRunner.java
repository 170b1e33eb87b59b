package io.github.mpi4j.testing;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import mpi.Intracomm;
import mpi.MPI;

/**
 * Runs a rank suite inside one rank: every {@link RankTest} method, on several communicators
 * (the world, a duplicate, and a split whose ranks are in reverse order), printing one result
 * line per run. The first failure prints its stack trace and ends the whole job, so no rank is
 * left waiting in a collective.
 *
 * <p>As a program: {@code RankRunner <suite class> [method]} under mpirun or mpi4jrun;
 * {@code RankRunner --list <suite class>} prints the test methods' names, one a line, without MPI
 * (tests/gpu/run-on-gpu.sh runs a failed suite again method by method).
 */
public final class RankRunner {
    private RankRunner() {
    }

    public static final String RESULT = "@@MPI4J RESULT";

    /** Thrown out of {@link #run} when a test failed; the job must end. */
    public static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("--list")) {
            for (Method m : testMethods(Class.forName(args[1]))) System.out.println(m.getName());
            return;
        }
        MPI.Init(args);
        Class<?> suite = Class.forName(args[0]);
        String only = args.length > 1 ? args[1] : null;
        try {
            run(suite, MPI.COMM_WORLD, only, System.out);
        } catch (Failed f) {
            System.out.flush();
            System.err.flush();
            MPI.COMM_WORLD.abort(1);
            return;
        }
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }

    /** The suite's test methods in a stable order (all ranks must run the same sequence). */
    public static List<Method> testMethods(Class<?> suite) {
        List<Method> methods = new ArrayList<>();
        for (Method m : suite.getMethods()) {
            if (m.isAnnotationPresent(RankTest.class)) methods.add(m);
        }
        methods.sort(Comparator.comparing(Method::getName));
        return methods;
    }

    /** Runs every test of {@code suite} over communicators derived from {@code world}. */
    public static void run(Class<?> suite, Intracomm world, String only, PrintStream out) throws Exception {
        Object instance = suite.getDeclaredConstructor().newInstance();
        int rank = world.getRank();
        Intracomm dup = world.dup();
        Intracomm reversed = world.split(0, world.getSize() - rank);
        List<Intracomm> comms = Arrays.asList(world, dup, reversed);
        List<String> names = Arrays.asList("world", "dup", "reversed");
        for (Method m : testMethods(suite)) {
            if (only != null && !only.equals(m.getName())) continue;
            RankTest spec = m.getAnnotation(RankTest.class);
            for (int v = 0; v < comms.size(); v++) {
                // A size-1 world has one distinct variant; skip the duplicates to keep jobs short.
                if (world.getSize() == 1 && v > 0 && !m.getName().startsWith("comm")) continue;
                Intracomm comm = comms.get(v);
                String id = m.getName() + " " + names.get(v);
                if (comm.getSize() < spec.minSize() || spec.processOnly() && !mpi.MPI.isInitialized()
                        || spec.worldOnly() && v > 0) {
                    out.println(RESULT + " " + rank + " " + id + " SKIP");
                    continue;
                }
                try {
                    m.invoke(instance, comm);
                    comm.barrier();
                    out.println(RESULT + " " + rank + " " + id + " PASS");
                } catch (InvocationTargetException e) {
                    Throwable cause = e.getCause();
                    out.println(RESULT + " " + rank + " " + id + " FAIL " + oneLine(cause));
                    cause.printStackTrace(out);
                    out.flush();
                    throw new Failed(id + " failed on rank " + rank, cause);
                }
            }
        }
        reversed.free();
        dup.free();
    }

    private static String oneLine(Throwable t) {
        String s = t.toString();
        return s.replace('\n', ' ');
    }
}
