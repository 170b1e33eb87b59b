package io.github.mpi4j.api;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * MPI.OBJECT against hostile data: each scenario of {@link ObjectSafetyProgram} in a fresh JVM
 * with a 64 MiB heap, since the JVM-wide filter and the filter factory are fixed per JVM.
 */
class ObjectSafetyTest {
    private static void scenario(String name, String... jvmOptions) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(Arrays.asList("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto"));
        cmd.addAll(Arrays.asList(jvmOptions));
        cmd.addAll(Arrays.asList("-cp", Jobs.classpath(), ObjectSafetyProgram.class.getName(), name));
        Jobs.Result r = Jobs.run(cmd, null, 90);
        assertTrue(r.exitCode == 0 && r.output.contains("OBJECT-SAFETY OK " + name), r.toString());
    }

    /** The JVM-wide filter applies to MPI.OBJECT: with !* the gadget's readObject never runs. */
    @Test
    void jvmWideFilterIsHonoured() throws Exception {
        scenario("jvm-filter", "-Djdk.serialFilter=!*");
    }

    /** A filter factory installed with ObjectInputFilter.Config decides too. */
    @Test
    void filterFactoryIsHonoured() throws Exception {
        scenario("factory");
    }

    /** The default policy, forged array sizes, deep graphs and out of memory, all as MPIExceptions. */
    @Test
    void defaultPolicyAndLimits() throws Exception {
        scenario("defaults");
    }

    /** An allow-list in mpi4j.serialFilter admits exactly the classes it names. */
    @Test
    void allowListInMpi4jSerialFilter() throws Exception {
        scenario("allow-list",
                "-Dmpi4j.serialFilter=io.github.mpi4j.api.ObjectSafetyProgram$Custom;java.base/*;!*");
    }
}
