package io.github.mpi4j.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a rank suite: {@code public void name(Intracomm comm)}, run by every rank of
 * a job with the communicator under test (world, a duplicate, a reordered split...).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface RankTest {
    /** Smallest communicator size the test makes sense for. */
    int minSize() default 1;

    /** Needs process-wide MPI state (MPI.attachBuffer...): skipped when ranks are threads. */
    boolean processOnly() default false;

    /** Runs on the world only; the other variants report SKIP (tests that start processes: spawning). */
    boolean worldOnly() default false;
}
