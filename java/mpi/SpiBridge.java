package mpi;

import io.github.mpi4j.spi.ApiBridge;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * This package's side of {@link ApiBridge}: the descriptors of communicators, datatypes and ops
 * for the public GPU classes below the API ({@code io.github.mpi4j.nccl}), which take them in
 * their signatures but may not see this package's internals. Installed by {@link Comm}.
 */
final class SpiBridge implements ApiBridge {

    @Override
    public BackendComm backendOf(Object comm, String call) {
        return ((Comm) comm).impl(call);
    }

    @Override
    public TypeDesc typeOf(Object datatype, String call, String arg) {
        return ((Datatype) datatype).desc(call, arg);
    }

    @Override
    public OpDesc opOf(Object op, String call) {
        return ((Op) op).desc(call);
    }

    @Override
    public Object intracommOf(Object parent, BackendComm child, String suffix) {
        Comm p = (Comm) parent;
        return new Intracomm(p.session, child, p.getName() + suffix);
    }

    @Override
    public void free(Object comm) {
        Comm c = (Comm) comm;
        if (!c.isNull()) c.free();
    }
}
