package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/**
 * What a spawned child inherits of its parent's warm-start setting: mpi4jrun's {@code auto}
 * becomes off (the children's world cannot count the parents that share their node); an
 * explicit setting is kept.
 */
class SpawnWarmupTest {
    @Test
    void autoBecomesOffAndExplicitSettingsPass() {
        assertEquals("0", FabricSpawn.childWarmup("auto"));
        assertEquals("0", FabricSpawn.childWarmup(" AUTO "));
        assertNull(FabricSpawn.childWarmup("1"), "an explicit on is the user's choice");
        assertNull(FabricSpawn.childWarmup("0"));
        assertNull(FabricSpawn.childWarmup(null));
    }
}
