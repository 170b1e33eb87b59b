package io.github.mpi4j.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The mapping of {@code spi} datatypes and ops to NCCL's enums, against the values of
 * {@code nccl.h} (ncclInt8 0, ncclInt32 2, ncclInt64 4, ncclFloat32 7, ncclFloat64 8; ncclSum 0,
 * ncclProd 1, ncclMax 2, ncclMin 3) and the byte sizes of the Java types, written out here.
 */
class NcclTypesTest {
    /** NCCL reduces exactly these: name to {ncclDataType_t, bytes}. */
    private static final Map<String, int[]> REDUCED = Map.of(
            "MPI.BYTE", new int[] {0, 1}, "MPI.INT", new int[] {2, 4}, "MPI.LONG", new int[] {4, 8},
            "MPI.FLOAT", new int[] {7, 4}, "MPI.DOUBLE", new int[] {8, 8});
    /** NCCL moves exactly these, as that many ncclInt8 per element. */
    private static final Map<String, Integer> MOVED = Map.ofEntries(
            Map.entry("MPI.BYTE", 1), Map.entry("MPI.BOOLEAN", 1), Map.entry("MPI.CHAR", 2), Map.entry("MPI.SHORT", 2),
            Map.entry("MPI.INT", 4), Map.entry("MPI.FLOAT", 4), Map.entry("MPI.SHORT2", 4), Map.entry("MPI.LONG", 8),
            Map.entry("MPI.DOUBLE", 8), Map.entry("MPI.INT2", 8), Map.entry("MPI.FLOAT2", 8),
            Map.entry("MPI.FLOAT_COMPLEX", 8), Map.entry("MPI.LONG2", 16), Map.entry("MPI.DOUBLE2", 16),
            Map.entry("MPI.DOUBLE_COMPLEX", 16));

    @Test
    void everyPredefinedTypeMapsAsNcclDoesIt() {
        int seen = 0;
        for (TypeDesc t : Predefined.ALL) {
            if (t == null) continue;
            seen++;
            for (TypeDesc d : new TypeDesc[] {t, t.duplicate()}) {
                int[] r = REDUCED.get(t.name);
                NcclTypes.Mapped m = NcclTypes.findReduction(d);
                if (r == null) {
                    assertNull(m, t.name + " is not reduced by NCCL");
                    assertThrows(IllegalArgumentException.class, () -> NcclTypes.forReduction("call", d), t.name);
                } else {
                    assertNotNull(m, t.name + " is reduced by NCCL");
                    assertEquals(r[0], m.ncclType, t.name);
                    assertEquals(r[1], m.elementBytes, t.name);
                    assertEquals(1, m.factor, t.name);
                }
                Integer bytes = MOVED.get(t.name);
                NcclTypes.Mapped v = NcclTypes.findMovement(d);
                if (bytes == null) {
                    assertNull(v, t.name + " is not moved by NCCL");
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> NcclTypes.forMovement("NcclComm.send", d), t.name);
                    assertTrue(e.getMessage().startsWith("NcclComm.send: type " + t.name), e.getMessage());
                } else {
                    assertNotNull(v, t.name + " is moved by NCCL");
                    assertEquals(0, v.ncclType, t.name + " moves as ncclInt8");
                    assertEquals(bytes.longValue(), v.factor, t.name);
                    assertEquals(bytes.longValue(), v.elementBytes, t.name);
                }
            }
        }
        assertTrue(seen >= REDUCED.size() + MOVED.size() - 5, "walked the predefined types (" + seen + ")");
    }

    @Test
    void derivedTypesAreNeitherReducedNorMoved() {
        TypeDesc contiguous = new TypeDesc("contiguous(2, MPI.INT)", BaseKind.INT, BaseKind.INT, Layout.DERIVED, 8, 8, 0,
                2, -1, null);
        assertNull(NcclTypes.findReduction(contiguous));
        assertNull(NcclTypes.findMovement(contiguous));
        assertNull(NcclTypes.findReduction(null));
        assertNull(NcclTypes.findMovement(null));
    }

    @Test
    void opsMapToNcclsAndTheRestAreRefusedByName() {
        Map<OpCode, Integer> nccl = Map.of(OpCode.SUM, 0, OpCode.PROD, 1, OpCode.MAX, 2, OpCode.MIN, 3);
        for (OpCode c : OpCode.values()) {
            OpDesc op = new OpDesc("MPI." + c, c, null, true);
            Integer want = nccl.get(c);
            assertEquals(want == null ? -1 : want, NcclTypes.findOp(op), c.name());
            if (want == null) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> NcclTypes.forOp("NcclComm.allReduce", op));
                assertTrue(e.getMessage().contains("op MPI." + c), e.getMessage());
            }
        }
        assertEquals(-1, NcclTypes.findOp(null));
    }
}
