package io.github.mpi4j.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * {@link Buffers#resolve}'s short path for memory it has met before: the same descriptor as the
 * full checks give, and after such a hit every argument the hit does not vouch for (count, type,
 * offset, direction) is still checked, with the full path's refusal.
 */
class ResolveSeenBufferTest {

    private static Buf resolve(Object buf, int offset, int count, TypeDesc type, boolean writable) {
        return Buffers.resolve("send", "buf", buf, offset, count, type, writable);
    }

    private static void refused(int errorClass, String expected, Executable call) {
        MPIException e = assertThrows(MPIException.class, call);
        assertEquals(errorClass, e.getErrorClass(), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void aSeenBufferGivesTheDescriptorTheFullChecksMade() {
        IntBuffer direct = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder()).asIntBuffer();
        Buf first = resolve(direct, 2, 3, Predefined.T_INT, false);
        assertSame(first, RecentBufs.find(direct, 2, false), "kept after the full checks");
        assertSame(first, resolve(direct, 2, 14, Predefined.T_INT, false));
        assertEquals(BaseKind.INT, first.kind);
        assertEquals(2, first.offset);
        assertEquals(14, first.length);
        // Another offset or direction is memory not met yet: its own descriptor.
        assertNotSame(first, resolve(direct, 3, 1, Predefined.T_INT, false));
        assertNotSame(first, resolve(direct, 2, 1, Predefined.T_INT, true));

        double[] array = new double[10];
        Buf pairs = resolve(array, 0, 5, Predefined.T_DOUBLE2, true);
        assertSame(pairs, resolve(array, 0, 5, Predefined.T_DOUBLE2, true));
        assertSame(pairs, resolve(array, 0, 7, Predefined.T_DOUBLE, true), "same memory, another elementwise type");
    }

    @Test
    void afterAHitWhatTheHitDoesNotCoverIsStillChecked() {
        int[] array = new int[4];
        resolve(array, 1, 3, Predefined.T_INT, false);
        refused(Mpi.ERR_BUFFER, "count 4 of MPI.INT needs 4 elements", () -> resolve(array, 1, 4, Predefined.T_INT, false));
        refused(Mpi.ERR_BUFFER, "count 2 of MPI.INT2 needs 4 elements", () -> resolve(array, 1, 2, Predefined.T_INT2, false));
        refused(Mpi.ERR_COUNT, "count must be >= 0, got -1", () -> resolve(array, 1, -1, Predefined.T_INT, false));
        refused(Mpi.ERR_TYPE, "MPI.DOUBLE", () -> resolve(array, 1, 1, Predefined.T_DOUBLE, false));
        refused(Mpi.ERR_TYPE, "datatype is null", () -> resolve(array, 1, 1, null, false));
        refused(Mpi.ERR_BUFFER, "offset must be >= 0, got -1", () -> resolve(array, -1, 1, Predefined.T_INT, false));

        DoubleBuffer readOnly = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder()).asDoubleBuffer()
                .asReadOnlyBuffer();
        Buf send = resolve(readOnly, 0, 4, Predefined.T_DOUBLE, false);
        assertSame(send, resolve(readOnly, 0, 4, Predefined.T_DOUBLE, false));
        refused(Mpi.ERR_BUFFER, "read-only", () -> resolve(readOnly, 0, 4, Predefined.T_DOUBLE, true));
    }

    @Test
    void onlyTypesWhoseItemsAreWholeElementsTakeTheShortPath() {
        for (TypeDesc t : new TypeDesc[] {Predefined.T_BYTE, Predefined.T_INT, Predefined.T_DOUBLE2,
                Predefined.T_DOUBLE_COMPLEX, Predefined.T_DOUBLE_INT, Predefined.T_PACKED}) {
            assertTrue(t.elementwise, t.name);
        }
        assertFalse(Predefined.T_OBJECT.elementwise, "MPI.OBJECT");
        // Items with room between them (an extent beyond the data, as a resized type has).
        TypeDesc spaced = new TypeDesc("spaced", BaseKind.INT, BaseKind.INT, Predefined.T_INT.layout, 4, 8, 0, 1, -1,
                null);
        assertFalse(spaced.elementwise);
        // An object array met before is no shortcut for MPI.OBJECT either.
        Object[] objects = new Object[2];
        resolve(objects, 0, 2, Predefined.T_OBJECT, false);
        refused(Mpi.ERR_TYPE, "MPI.INT", () -> resolve(objects, 0, 1, Predefined.T_INT, false));
    }
}
