package io.github.mpi4j.spi;

import java.util.function.UnaryOperator;

/**
 * The {@link Spawning} capability seen through a layer around the backend's communicators
 * (derived-type packing, device staging): the intercommunicators it makes get the layer too.
 */
public final class SpawningDecorator implements Spawning {
    private final Spawning inner;
    private final UnaryOperator<BackendComm> made;

    public SpawningDecorator(Spawning inner, UnaryOperator<BackendComm> made) {
        this.inner = inner;
        this.made = made;
    }

    @Override
    public BackendComm spawn(Command[] commands, boolean multiple, int root, int[] errcodes) {
        return made.apply(inner.spawn(commands, multiple, root, errcodes));
    }

    @Override
    public BackendComm parent() {
        BackendComm p = inner.parent();
        return p == null ? null : made.apply(p);
    }
}
