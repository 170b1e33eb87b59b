package io.github.mpi4j.spi;

/**
 * A reduction written in Java: combines {@code in} into {@code inout} element-wise,
 * {@code inout[i] = in[i] op inout[i]}, for {@code count} items of {@code type}.
 */
@FunctionalInterface
public interface UserReduction {
    void reduce(Buf in, Buf inout, int count, TypeDesc type);
}
