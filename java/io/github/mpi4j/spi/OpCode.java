package io.github.mpi4j.spi;

/** Predefined reduction operations, plus USER for Java functions. */
public enum OpCode {
    MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR, MINLOC, MAXLOC, REPLACE, NO_OP, USER;

    /** MINLOC/MAXLOC work on (value, index) pairs; the others on plain values. */
    public boolean isLocOp() {
        return this == MINLOC || this == MAXLOC;
    }
}
