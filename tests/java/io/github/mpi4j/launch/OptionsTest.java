package io.github.mpi4j.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The launcher's command line, hosts and rank placement. */
class OptionsTest {
    @Test
    void launcherOptionsThenJavaOptionsThenProgram() throws Exception {
        Options o = Options.parse(new String[] {"-np", "4", "--tag-output", "--timeout", "30", "-x", "A=b", "-Xmx1g",
            "-cp", "lib/x.jar", "-Dk=v", "my.Main", "arg1", "-np", "9"});
        assertEquals(4, o.np);
        assertTrue(o.tagOutput);
        assertEquals(30.0, o.timeoutSeconds);
        assertEquals("b", o.exports.get("A"));
        assertEquals(List.of("-Xmx1g", "-Dk=v"), o.javaOptions);
        assertEquals("lib/x.jar", o.classpath);
        assertEquals("my.Main", o.program);
        assertEquals(List.of("arg1", "-np", "9"), o.args, "program arguments are left alone");
    }

    @Test
    void jarAndSourcePrograms() throws Exception {
        Options o = Options.parse(new String[] {"-n", "2", "-jar", "app.jar", "x"});
        assertTrue(o.programIsJar);
        assertEquals("app.jar", o.program);
        assertEquals(List.of("x"), o.args);
        o = Options.parse(new String[] {"-np", "2", "Prog.java"});
        assertEquals("Prog.java", o.program);
    }

    @Test
    void everyRankGetsOneWarmStartSetting() throws Exception {
        String[] plain = {"-np", "2", "Main"};
        assertEquals("auto", Options.parse(plain, Map.of()).exports.get("MPI4J_WARMUP"), "the launcher's default");
        assertEquals("auto", Options.parse(plain, Map.of("MPI4J_WARMUP", " ")).exports.get("MPI4J_WARMUP"));
        assertEquals("0", Options.parse(plain, Map.of("MPI4J_WARMUP", "0")).exports.get("MPI4J_WARMUP"),
                "the launcher's environment, passed on to every rank (remote ones too)");
        String[] exported = {"-np", "2", "-x", "MPI4J_WARMUP=1", "Main"};
        assertEquals("1", Options.parse(exported, Map.of("MPI4J_WARMUP", "0")).exports.get("MPI4J_WARMUP"),
                "-x wins over the environment");
        String[] option = {"-np", "2", "--warmup", "OFF", "-x", "MPI4J_WARMUP=1", "Main"};
        Options o = Options.parse(option, Map.of("MPI4J_WARMUP", "1"));
        assertEquals("off", o.exports.get("MPI4J_WARMUP"), "--warmup wins over -x and the environment");
        assertEquals("off", o.warmup);
        Options.UsageException bad = assertThrows(Options.UsageException.class,
                () -> Options.parse(new String[] {"-np", "2", "--warmup", "maybe", "Main"}, Map.of()));
        assertTrue(bad.getMessage().contains("--warmup needs auto, on or off, got 'maybe'"), bad.getMessage());
    }

    @Test
    void badCommandLines() {
        assertThrows(Options.UsageException.class, () -> Options.parse(new String[] {"Main"}));
        assertThrows(Options.UsageException.class, () -> Options.parse(new String[] {"-np", "x", "Main"}));
        assertThrows(Options.UsageException.class, () -> Options.parse(new String[] {"-np", "2"}));
        assertThrows(Options.UsageException.class, () -> Options.parse(new String[] {"-np", "2", "-x", "NOEQUALS", "M"}));
    }

    @Test
    void hostsAndPlacement() throws Exception {
        List<Hosts.Host> h = Hosts.parseList("a:2,b:1,c");
        assertArrayEquals(new String[] {"a", "a", "b", "c"}, Hosts.assign(h, 4, false));
        assertThrows(Options.UsageException.class, () -> Hosts.assign(h, 5, false));
        assertArrayEquals(new String[] {"a", "a", "b", "c", "a"}, Hosts.assign(h, 5, true));
        List<Hosts.Host> f = Hosts.parseFile(List.of("# nodes", "n1 slots=3", "n2:2", "", "n3"));
        assertEquals(3, f.size());
        assertEquals(3, f.get(0).slots);
        assertEquals(2, f.get(1).slots);
        assertEquals("n3", f.get(2).name);
    }

    @Test
    void quotingForTheRemoteShell() {
        assertEquals("'it'\\''s'", FabricJob.quote("it's"));
    }

    /** A job on this host only offers its rendezvous store on the loopback interface. */
    @Test
    void aLocalJobsStoreListensOnLoopbackOnly() throws Exception {
        Options o = Options.parse(new String[] {"-np", "2", "Hello"});
        try (io.github.mpi4j.fabric.bootstrap.RendezvousServer s = Launcher.startStore(
                io.github.mpi4j.fabric.bootstrap.Secrets.generate(), Launcher.launcherAddress(o, null))) {
            assertTrue(s.boundAddress().isLoopbackAddress(), s.boundAddress().toString());
        }
    }
}
