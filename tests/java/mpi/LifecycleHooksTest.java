package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.spi.Backend;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 8 item 3: freeing an op or a datatype hands each backend the handle it recorded in the
 * object's lifecycle, once; a backend that recorded nothing is not called. Backends here are
 * recording stand-ins, so the test needs no MPI.
 */
class LifecycleHooksTest {

    /** A backend that records the calls of its lifecycle hooks as "method:handle". */
    private static Backend recorder(List<String> calls) {
        return (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(), new Class<?>[] {Backend.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "freeOp":
                        case "freeType":
                        case "commitType":
                            calls.add(method.getName() + ":" + (args.length > 1 ? args[1] : args[0]));
                            return null;
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        case "equals":
                            return proxy == args[0];
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    private static Op userOp() {
        return new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inout, int count, Datatype type) {
            }
        }, true);
    }

    @Test
    void freeingAnOpHandsEachBackendItsHandleOnce() {
        List<String> a = new ArrayList<>(), b = new ArrayList<>(), c = new ArrayList<>();
        Backend ba = recorder(a), bb = recorder(b), bc = recorder(c);
        Op op = userOp();
        assertTrue(op.desc.lifecycle.hold(ba, "opA"));
        assertTrue(op.desc.lifecycle.hold(bb, "old"));
        assertTrue(op.desc.lifecycle.hold(bb, "opB"));
        assertSame("opB", op.desc.lifecycle.handleOf(bb));
        assertNull(op.desc.lifecycle.handleOf(bc));
        op.free();
        assertEquals(List.of("freeOp:opA"), a);
        assertEquals(List.of("freeOp:opB"), b);
        assertEquals(List.of(), c);
        assertTrue(op.isNull());
        assertFalse(op.desc.lifecycle.hold(bc, "late"), "nothing may be recorded for a freed op");
        MPIException twice = assertThrows(MPIException.class, op::free);
        assertEquals(MPI.ERR_OP, twice.getErrorClass());
        assertTrue(twice.getMessage().contains("freed already"), twice.getMessage());
        assertEquals(List.of("freeOp:opA"), a, "a double free reaches no backend");
    }

    @Test
    void freeingADatatypeHandsEachBackendItsHandleOnce() {
        List<String> a = new ArrayList<>();
        Backend ba = recorder(a);
        Datatype t = MPI.DOUBLE.dup();
        assertTrue(t.desc != MPI.DOUBLE.desc, "a duplicate has a descriptor of its own");
        assertTrue(t.desc.lifecycle.hold(ba, 42L));
        t.free();
        assertEquals(List.of("freeType:42"), a);
        assertTrue(t.isNull());
        assertFalse(MPI.DOUBLE.isNull());
        assertFalse(MPI.DOUBLE.desc.lifecycle.isFreed(), "freeing a duplicate leaves the original alone");
        MPIException twice = assertThrows(MPIException.class, t::free);
        assertEquals(MPI.ERR_TYPE, twice.getErrorClass());
        assertTrue(twice.getMessage().contains("MPI.DOUBLE") && twice.getMessage().contains("freed already"),
                twice.getMessage());
        MPIException predefined = assertThrows(MPIException.class, MPI.DOUBLE::free);
        assertTrue(predefined.getMessage().contains("MPI.DOUBLE"), predefined.getMessage());
        MPIException nullType = assertThrows(MPIException.class, MPI.DATATYPE_NULL::free);
        assertTrue(nullType.getMessage().contains("MPI.DATATYPE_NULL"), nullType.getMessage());
        assertEquals(List.of("freeType:42"), a, "refused frees reach no backend");
    }
}
