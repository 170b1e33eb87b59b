package mpi;

import io.github.mpi4j.runtime.BackendSelector;
import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * Start and end of MPI, environment queries, and the predefined constants, datatypes,
 * operations and communicators. Names follow the Open MPI Java bindings; the mpiJava 1.2 /
 * MPJ Express names ({@code Wtime()}, {@code Get_processor_name()}, ...) are here too.
 *
 * <p>{@link #Init(String[])} picks the backend: the system MPI when the program was started by
 * {@code mpirun}/{@code srun} and the MPI bridge is available, otherwise mpi4j's own fabric
 * (a world of one process when started with plain {@code java}). See
 * {@code io.github.mpi4j.Mpi4j} for which backend was chosen and why.
 */
public final class MPI {
    private MPI() {
    }

    // ---- thread levels ---------------------------------------------------------------------
    public static final int THREAD_SINGLE = Mpi.THREAD_SINGLE;
    public static final int THREAD_FUNNELED = Mpi.THREAD_FUNNELED;
    public static final int THREAD_SERIALIZED = Mpi.THREAD_SERIALIZED;
    public static final int THREAD_MULTIPLE = Mpi.THREAD_MULTIPLE;

    // ---- version of the MPI standard implemented (MPI_VERSION, MPI_SUBVERSION) ----------------
    public static final int VERSION = 3;
    public static final int SUBVERSION = 1;

    // ---- special ranks, tags and values -------------------------------------------------------
    public static final int ANY_SOURCE = Mpi.ANY_SOURCE;
    public static final int ANY_TAG = Mpi.ANY_TAG;
    public static final int PROC_NULL = Mpi.PROC_NULL;
    public static final int ROOT = Mpi.ROOT;
    public static final int UNDEFINED = Mpi.UNDEFINED;
    public static final int KEYVAL_INVALID = -1;
    public static final int BSEND_OVERHEAD = Mpi.BSEND_OVERHEAD;
    /** MPJ Express: bytes a send adds to its data (the buffered-send overhead, as MPJ Express). */
    public static final int SEND_OVERHEAD = BSEND_OVERHEAD;
    /** MPJ Express: bytes a receive needs beyond the data; none here. */
    public static final int RECV_OVERHEAD = 0;
    /** MPJ Express: processors available to this JVM (threaded test programs size their work by it). */
    public static final int NUM_OF_PROCESSORS = Runtime.getRuntime().availableProcessors();
    public static final int MAX_PROCESSOR_NAME = 256;
    public static final int MAX_ERROR_STRING = 256;
    public static final int MAX_OBJECT_NAME = 64;
    public static final int MAX_INFO_KEY = 36;
    public static final int MAX_INFO_VAL = 256;
    public static final int MAX_PORT_NAME = 1024;

    // ---- comparisons and topologies -------------------------------------------------------------
    public static final int IDENT = 0;
    public static final int CONGRUENT = 1;
    public static final int SIMILAR = 2;
    public static final int UNEQUAL = 3;
    public static final int CART = 1;
    public static final int GRAPH = 2;
    public static final int DIST_GRAPH = 3;

    // ---- predefined attribute keys --------------------------------------------------------------
    public static final int TAG_UB = 0;
    public static final int HOST = 1;
    public static final int IO = 2;
    public static final int WTIME_IS_GLOBAL = 3;
    public static final int APPNUM = 4;
    public static final int LASTUSEDCODE = 5;
    public static final int UNIVERSE_SIZE = 6;

    // ---- error classes (values of Open MPI's mpi.h) -----------------------------------------------
    public static final int SUCCESS = Mpi.SUCCESS;
    public static final int ERR_BUFFER = Mpi.ERR_BUFFER;
    public static final int ERR_COUNT = Mpi.ERR_COUNT;
    public static final int ERR_TYPE = Mpi.ERR_TYPE;
    public static final int ERR_TAG = Mpi.ERR_TAG;
    public static final int ERR_COMM = Mpi.ERR_COMM;
    public static final int ERR_RANK = Mpi.ERR_RANK;
    public static final int ERR_REQUEST = Mpi.ERR_REQUEST;
    public static final int ERR_ROOT = Mpi.ERR_ROOT;
    public static final int ERR_GROUP = Mpi.ERR_GROUP;
    public static final int ERR_OP = Mpi.ERR_OP;
    public static final int ERR_TOPOLOGY = Mpi.ERR_TOPOLOGY;
    public static final int ERR_DIMS = Mpi.ERR_DIMS;
    public static final int ERR_ARG = Mpi.ERR_ARG;
    public static final int ERR_UNKNOWN = Mpi.ERR_UNKNOWN;
    public static final int ERR_TRUNCATE = Mpi.ERR_TRUNCATE;
    public static final int ERR_OTHER = Mpi.ERR_OTHER;
    public static final int ERR_INTERN = Mpi.ERR_INTERN;
    public static final int ERR_IN_STATUS = Mpi.ERR_IN_STATUS;
    public static final int ERR_PENDING = Mpi.ERR_PENDING;
    public static final int ERR_ACCESS = Mpi.ERR_ACCESS;
    public static final int ERR_AMODE = Mpi.ERR_AMODE;
    public static final int ERR_ASSERT = Mpi.ERR_ASSERT;
    public static final int ERR_BAD_FILE = Mpi.ERR_BAD_FILE;
    public static final int ERR_BASE = Mpi.ERR_BASE;
    public static final int ERR_CONVERSION = Mpi.ERR_CONVERSION;
    public static final int ERR_DISP = Mpi.ERR_DISP;
    public static final int ERR_DUP_DATAREP = Mpi.ERR_DUP_DATAREP;
    public static final int ERR_FILE_EXISTS = Mpi.ERR_FILE_EXISTS;
    public static final int ERR_FILE_IN_USE = Mpi.ERR_FILE_IN_USE;
    public static final int ERR_FILE = Mpi.ERR_FILE;
    public static final int ERR_INFO_KEY = Mpi.ERR_INFO_KEY;
    public static final int ERR_INFO_NOKEY = Mpi.ERR_INFO_NOKEY;
    public static final int ERR_INFO_VALUE = Mpi.ERR_INFO_VALUE;
    public static final int ERR_INFO = Mpi.ERR_INFO;
    public static final int ERR_IO = Mpi.ERR_IO;
    public static final int ERR_KEYVAL = Mpi.ERR_KEYVAL;
    public static final int ERR_LOCKTYPE = Mpi.ERR_LOCKTYPE;
    public static final int ERR_NAME = Mpi.ERR_NAME;
    public static final int ERR_NO_MEM = Mpi.ERR_NO_MEM;
    public static final int ERR_NOT_SAME = Mpi.ERR_NOT_SAME;
    public static final int ERR_NO_SPACE = Mpi.ERR_NO_SPACE;
    public static final int ERR_NO_SUCH_FILE = Mpi.ERR_NO_SUCH_FILE;
    public static final int ERR_PORT = Mpi.ERR_PORT;
    public static final int ERR_QUOTA = Mpi.ERR_QUOTA;
    public static final int ERR_READ_ONLY = Mpi.ERR_READ_ONLY;
    public static final int ERR_RMA_CONFLICT = Mpi.ERR_RMA_CONFLICT;
    public static final int ERR_RMA_SYNC = Mpi.ERR_RMA_SYNC;
    public static final int ERR_SERVICE = Mpi.ERR_SERVICE;
    public static final int ERR_SIZE = Mpi.ERR_SIZE;
    public static final int ERR_SPAWN = Mpi.ERR_SPAWN;
    public static final int ERR_UNSUPPORTED_DATAREP = Mpi.ERR_UNSUPPORTED_DATAREP;
    public static final int ERR_UNSUPPORTED_OPERATION = Mpi.ERR_UNSUPPORTED_OPERATION;
    public static final int ERR_WIN = Mpi.ERR_WIN;
    public static final int ERR_PROC_ABORTED = Mpi.ERR_PROC_ABORTED;
    /** Open MPI's extra class for exhausted system resources. */
    public static final int ERR_SYSRESOURCE = Mpi.ERR_SYSRESOURCE;
    public static final int ERR_LASTCODE = Mpi.ERR_LASTCODE;

    /** Pass as the send buffer of a collective to use the receive buffer in place. */
    public static final Object IN_PLACE = Mpi.IN_PLACE;

    // ---- datatypes ---------------------------------------------------------------------------------
    public static final Datatype BYTE = type(Predefined.T_BYTE);
    public static final Datatype CHAR = type(Predefined.T_CHAR);
    public static final Datatype SHORT = type(Predefined.T_SHORT);
    public static final Datatype BOOLEAN = type(Predefined.T_BOOLEAN);
    public static final Datatype INT = type(Predefined.T_INT);
    public static final Datatype LONG = type(Predefined.T_LONG);
    public static final Datatype FLOAT = type(Predefined.T_FLOAT);
    public static final Datatype DOUBLE = type(Predefined.T_DOUBLE);
    public static final Datatype PACKED = type(Predefined.T_PACKED);
    /** Serializable Java objects in {@code Object[]} buffers (mpiJava 1.2). */
    public static final Datatype OBJECT = type(Predefined.T_OBJECT);
    public static final Datatype LB = type(Predefined.T_LB);
    public static final Datatype UB = type(Predefined.T_UB);
    /** (value, index) pairs in {@code short[]}, for MINLOC/MAXLOC. */
    public static final Datatype SHORT2 = type(Predefined.T_SHORT2);
    /** (value, index) pairs in {@code int[]}, for MINLOC/MAXLOC. */
    public static final Datatype INT2 = type(Predefined.T_INT2);
    public static final Datatype LONG2 = type(Predefined.T_LONG2);
    public static final Datatype FLOAT2 = type(Predefined.T_FLOAT2);
    public static final Datatype DOUBLE2 = type(Predefined.T_DOUBLE2);
    /** C struct {short; int} in raw memory (direct ByteBuffer or byte[]); see {@link ShortInt}. */
    public static final Datatype SHORT_INT = type(Predefined.T_SHORT_INT);
    public static final Datatype LONG_INT = type(Predefined.T_LONG_INT);
    public static final Datatype FLOAT_INT = type(Predefined.T_FLOAT_INT);
    public static final Datatype DOUBLE_INT = type(Predefined.T_DOUBLE_INT);
    public static final Datatype FLOAT_COMPLEX = type(Predefined.T_FLOAT_COMPLEX);
    public static final Datatype DOUBLE_COMPLEX = type(Predefined.T_DOUBLE_COMPLEX);
    public static final Datatype C_FLOAT_COMPLEX = FLOAT_COMPLEX;
    public static final Datatype C_DOUBLE_COMPLEX = DOUBLE_COMPLEX;

    // ---- operations ----------------------------------------------------------------------------------
    public static final Op MAX = op("MPI.MAX", OpCode.MAX);
    public static final Op MIN = op("MPI.MIN", OpCode.MIN);
    public static final Op SUM = op("MPI.SUM", OpCode.SUM);
    public static final Op PROD = op("MPI.PROD", OpCode.PROD);
    public static final Op LAND = op("MPI.LAND", OpCode.LAND);
    public static final Op BAND = op("MPI.BAND", OpCode.BAND);
    public static final Op LOR = op("MPI.LOR", OpCode.LOR);
    public static final Op BOR = op("MPI.BOR", OpCode.BOR);
    public static final Op LXOR = op("MPI.LXOR", OpCode.LXOR);
    public static final Op BXOR = op("MPI.BXOR", OpCode.BXOR);
    public static final Op MINLOC = op("MPI.MINLOC", OpCode.MINLOC);
    public static final Op MAXLOC = op("MPI.MAXLOC", OpCode.MAXLOC);
    public static final Op REPLACE = op("MPI.REPLACE", OpCode.REPLACE);
    public static final Op NO_OP = op("MPI.NO_OP", OpCode.NO_OP);

    // ---- error handlers, null objects -----------------------------------------------------------------
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler("MPI.ERRORS_ARE_FATAL");
    public static final Errhandler ERRORS_RETURN = new Errhandler("MPI.ERRORS_RETURN");
    /** Accepted like {@link #ERRORS_ARE_FATAL}: errors are reported as exceptions. */
    public static final Errhandler ERRORS_ABORT = new Errhandler("MPI.ERRORS_ABORT");
    public static final Group GROUP_EMPTY = Group.EMPTY;
    public static final Request REQUEST_NULL = new Request();
    public static final Info INFO_NULL = new Info();
    /**
     * The environment (MPI_INFO_ENV), filled by Init with the keys MPI defines: command, argv,
     * maxprocs, host, arch, wdir, thread_level.
     */
    public static final Info INFO_ENV = new Info();
    /** The null datatype: any call given it throws. */
    public static final Datatype DATATYPE_NULL = Datatype.nullType();

    // ---- communicators: bound to a backend by Init -------------------------------------------------
    private static final Session SESSION = new Session();

    /** All processes of the job. */
    public static final Intracomm COMM_WORLD = new Intracomm(SESSION, null, "MPI.COMM_WORLD");
    /** This process alone. */
    public static final Intracomm COMM_SELF = new Intracomm(SESSION, null, "MPI.COMM_SELF");

    private static Datatype type(TypeDesc d) {
        return new Datatype(d).asConstant();
    }

    private static Op op(String name, OpCode code) {
        return new Op(new OpDesc(name, code, null, true));
    }

    // =====================================================================================
    // Start and end
    // =====================================================================================

    /** Starts MPI; returns the arguments (mpiJava 1.2 returned those not consumed by MPI). */
    public static String[] Init(String[] args) {
        initImpl("MPI.Init", THREAD_SINGLE);
        fillInfoEnv(args);
        warmStartIfAsked();
        return args == null ? new String[0] : args.clone();
    }

    /** Starts MPI asking for thread level {@code required}; returns the level provided. */
    public static int InitThread(String[] args, int required) {
        if (required < THREAD_SINGLE || required > THREAD_MULTIPLE) {
            throw MPIException.of(ERR_ARG, "MPI.InitThread: required " + required
                    + " is not one of MPI.THREAD_SINGLE..MPI.THREAD_MULTIPLE (0..3)");
        }
        int provided = initImpl("MPI.InitThread", required);
        fillInfoEnv(args);
        warmStartIfAsked();
        return provided;
    }

    private static synchronized int initImpl(String call, int required) {
        if (SESSION.isInitialized()) {
            throw MPIException.of(ERR_OTHER, call + ": MPI is already " + (SESSION.isFinalized()
                    ? "finalized and cannot be initialized again" : "initialized"));
        }
        Backend backend = BackendSelector.select(required);
        SESSION.start(backend);
        COMM_WORLD.impl = backend.world();
        COMM_SELF.impl = backend.self();
        io.github.mpi4j.Mpi4j.chosen(backend);
        return backend.threadLevel();
    }

    /** MPI4J_WARMUP=1 or auto: the library's common paths run until compiled before Init returns (WarmStart). */
    private static void warmStartIfAsked() {
        WarmStart.Setting setting = WarmStart.setting();
        if (setting == WarmStart.Setting.OFF) return;
        if (setting == WarmStart.Setting.AUTO) {
            String skip = WarmStart.skipUnderAuto(COMM_WORLD);
            if (skip != null) {
                if (io.github.mpi4j.Mpi4j.verbose() && COMM_WORLD.getRank() == 0) {
                    System.err.println("mpi4j: warm start: auto, skipped (" + skip + ")");
                }
                return;
            }
        }
        WarmStart.run(COMM_WORLD, io.github.mpi4j.Mpi4j.verbose());
    }

    /** Ends MPI. No MPI call is allowed afterwards. */
    public static synchronized void Finalize() {
        Backend backend = SESSION.finish();
        backend.finish();
    }

    public static boolean isInitialized() {
        return SESSION.isInitialized();
    }

    public static boolean isFinalized() {
        return SESSION.isFinalized();
    }

    /** Thread level provided at initialization. */
    public static int queryThread() {
        return SESSION.backend().threadLevel();
    }

    /** Whether the calling thread is the one that initialized MPI. */
    public static boolean isThreadMain() {
        SESSION.check();
        return Thread.currentThread() == SESSION.initThread();
    }

    /** Elapsed wall-clock seconds since some time in the past. */
    public static double wtime() {
        return SESSION.backend().wtime();
    }

    /** Resolution of {@link #wtime()} in seconds. */
    public static double wtick() {
        return SESSION.backend().wtick();
    }

    public static String getProcessorName() {
        return SESSION.backend().processorName();
    }

    public static Version getVersion() {
        int[] v = SESSION.isInitialized() && !SESSION.isFinalized() ? SESSION.backend().version() : new int[] {3, 1};
        return new Version(v[0], v[1]);
    }

    /** The library's version text; callable before Init and after Finalize, as MPI_Get_library_version. */
    public static String getLibVersion() {
        if (SESSION.isInitialized() && !SESSION.isFinalized()) return SESSION.backend().libVersion();
        return Environment.libVersionWithoutBackend();
    }

    /** The byte[] given to {@link #attachBuffer(byte[])}, returned again by {@link #detachBuffer()}. */
    private static byte[] attachedArray;

    /**
     * Memory for buffered sends (bSend), as in the Open MPI bindings and mpiJava 1.2. mpi4j
     * backs it with a direct buffer of the same size; {@link #detachBuffer()} returns this array.
     */
    public static synchronized void attachBuffer(byte[] buffer) {
        if (buffer == null) throw MPIException.of(ERR_BUFFER, "MPI.attachBuffer: buffer is null");
        SESSION.backend().attachBuffer(direct(buffer.length));
        attachedArray = buffer;
    }

    /** Memory for buffered sends (bSend) as a direct ByteBuffer (MPI.newByteBuffer). */
    public static synchronized void attachBuffer(ByteBuffer buffer) {
        if (buffer == null || !buffer.isDirect()) {
            throw MPIException.of(ERR_BUFFER, "MPI.attachBuffer: buffer must be a direct ByteBuffer (MPI.newByteBuffer) "
                    + "or a byte[]");
        }
        SESSION.backend().attachBuffer(buffer);
        attachedArray = null;
    }

    /**
     * Detaches the buffered-send buffer after its pending sends complete. Returns the array
     * given to {@link #attachBuffer(byte[])}; after {@link #attachBuffer(ByteBuffer)}, a copy
     * of the buffer's bytes.
     */
    public static synchronized byte[] detachBuffer() {
        ByteBuffer b = SESSION.backend().detachBuffer();
        byte[] a = attachedArray;
        attachedArray = null;
        if (a != null) return a;
        byte[] copy = new byte[b.capacity()];
        b.duplicate().clear().get(copy);
        return copy;
    }

    /** Profiling control: accepted and ignored. */
    public static void pControl(int level, Object obj) {
        SESSION.check();
    }

    /** Message of an MPI error code or class. */
    public static String getErrorString(int errorCode) {
        return SESSION.backend().errorString(errorCode);
    }

    public static int getErrorClass(int errorCode) {
        return SESSION.backend().errorClass(errorCode);
    }

    // =====================================================================================
    // Direct buffers (native byte order) and slices
    // =====================================================================================

    /**
     * Where the buffers of {@code newXxxBuffer} start: on a cache line, as MPI_Alloc_mem's and
     * posix_memalign's memory does (a plain direct buffer starts wherever malloc put it, 16-byte
     * aligned). A 32 KiB put from a buffer 16 bytes off a line into a window took about 14% longer
     * at the median (docs/performance.md, eighth session).
     */
    static final int BUFFER_ALIGNMENT = 64;

    private static ByteBuffer direct(int bytes) {
        if (bytes < 0) throw MPIException.of(ERR_ARG, "MPI.newBuffer: capacity must be >= 0");
        int room = 2 * BUFFER_ALIGNMENT - 1; // alignedSlice may drop up to one unit at each end
        if (bytes > Integer.MAX_VALUE - room) return ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
        ByteBuffer raw = ByteBuffer.allocateDirect(bytes + room);
        return raw.alignedSlice(BUFFER_ALIGNMENT).limit(bytes).slice().order(ByteOrder.nativeOrder());
    }

    private static int times(int capacity, int size) {
        if (capacity < 0) throw MPIException.of(ERR_ARG, "capacity must be >= 0, got " + capacity);
        if ((long) capacity * size > Integer.MAX_VALUE) {
            throw MPIException.of(ERR_ARG, "capacity " + capacity + " x " + size + " bytes exceeds 2 GiB");
        }
        return capacity * size;
    }

    public static ByteBuffer newByteBuffer(int capacity) {
        return direct(times(capacity, 1));
    }

    public static CharBuffer newCharBuffer(int capacity) {
        return direct(times(capacity, 2)).asCharBuffer();
    }

    public static ShortBuffer newShortBuffer(int capacity) {
        return direct(times(capacity, 2)).asShortBuffer();
    }

    public static IntBuffer newIntBuffer(int capacity) {
        return direct(times(capacity, 4)).asIntBuffer();
    }

    public static LongBuffer newLongBuffer(int capacity) {
        return direct(times(capacity, 8)).asLongBuffer();
    }

    public static FloatBuffer newFloatBuffer(int capacity) {
        return direct(times(capacity, 4)).asFloatBuffer();
    }

    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return direct(times(capacity, 8)).asDoubleBuffer();
    }

    // A slice starts at element `offset` of the buffer (position is ignored by MPI calls).

    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        return io.github.mpi4j.buffer.SliceOrigins.note(buf, offset, buf.duplicate().position(offset).slice().order(buf.order()));
    }

    public static CharBuffer slice(CharBuffer buf, int offset) {
        return io.github.mpi4j.buffer.SliceOrigins.note(buf, offset, buf.duplicate().position(offset).slice());
    }

    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        return io.github.mpi4j.buffer.SliceOrigins.note(buf, offset, buf.duplicate().position(offset).slice());
    }

    public static IntBuffer slice(IntBuffer buf, int offset) {
        return io.github.mpi4j.buffer.SliceOrigins.note(buf, offset, buf.duplicate().position(offset).slice());
    }

    public static LongBuffer slice(LongBuffer buf, int offset) {
        return io.github.mpi4j.buffer.SliceOrigins.note(buf, offset, buf.duplicate().position(offset).slice());
    }

    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        return io.github.mpi4j.buffer.SliceOrigins.note(buf, offset, buf.duplicate().position(offset).slice());
    }

    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        return io.github.mpi4j.buffer.SliceOrigins.note(buf, offset, buf.duplicate().position(offset).slice());
    }

    // Array slices: a buffer over the array from `offset`, without copying.

    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    // =====================================================================================
    // mpiJava 1.2 / MPJ Express names
    // =====================================================================================

    public static int Init_thread(String[] args, int required) {
        return InitThread(args, required);
    }

    public static boolean Initialized() {
        return isInitialized();
    }

    public static boolean Finalized() {
        return isFinalized();
    }

    public static int Query_thread() {
        return queryThread();
    }

    public static boolean Is_thread_main() {
        return isThreadMain();
    }

    /** MPJ Express spelling of {@link #isThreadMain()}. */
    public static boolean isMainThread() {
        return isThreadMain();
    }

    /** MPJ Express: sets the error handler of {@code COMM_WORLD} (MPJ Express itself ignores it). */
    public static void Errorhandler_set(Errhandler errhandler) {
        SESSION.check();
        COMM_WORLD.setErrhandler(errhandler);
    }

    /** MPJ Express: the error handler of {@code COMM_WORLD}. */
    public static Errhandler Errorhandler_get() {
        SESSION.check();
        return COMM_WORLD.getErrhandler();
    }

    public static double Wtime() {
        return wtime();
    }

    public static double Wtick() {
        return wtick();
    }

    public static String Get_processor_name() {
        return getProcessorName();
    }

    public static void Buffer_attach(byte[] buffer) {
        attachBuffer(buffer);
    }

    public static void Buffer_attach(ByteBuffer buffer) {
        attachBuffer(buffer);
    }

    public static byte[] Buffer_detach() {
        return detachBuffer();
    }

    public static void Pcontrol(int level, Object obj) {
        pControl(level, obj);
    }

    /** The session behind {@link #COMM_WORLD}; for mpi4j's own tools. */
    static Session session() {
        return SESSION;
    }

    // ---- environment (issue 10) ----

    private static void fillInfoEnv(String[] args) {
        Environment.fillInfoEnv(INFO_ENV, args, COMM_WORLD.getSize(), queryThread(), getProcessorName());
    }

    // ---- derived datatypes (issue 10) ----
    /** Array orders of {@code Datatype.createSubarray}: row-major (C) and column-major (Fortran). */
    public static final int ORDER_C = 0, ORDER_FORTRAN = 1;
    /** Distributions of {@code Datatype.createDarray}. */
    public static final int DISTRIBUTE_BLOCK = 121, DISTRIBUTE_CYCLIC = 122, DISTRIBUTE_NONE = 123,
            DISTRIBUTE_DFLT_DARG = -49767;

    // Record views of the pair types (Open MPI bindings), C layouts of LP64 Linux.
    /** Views records of MPI.INT2: int value, int index at 4. */
    public static final Int2 int2 = new Int2(4, 4);
    /** Views records of MPI.SHORT_INT: short value, int index at 4. */
    public static final ShortInt shortInt = new ShortInt(4, 4);
    /** Views records of MPI.LONG_INT: long value, int index at 8. */
    public static final LongInt longInt = new LongInt(8, 4);
    /** Views records of MPI.FLOAT_INT: float value, int index at 4. */
    public static final FloatInt floatInt = new FloatInt(4, 4);
    /** Views records of MPI.DOUBLE_INT: double value, int index at 8. */
    public static final DoubleInt doubleInt = new DoubleInt(8, 4);

    // ---- MPI-IO (issue 11): access modes, whence values (ORDER_* and DISTRIBUTE_* are with the datatypes above) ----

    public static final int MODE_CREATE = io.github.mpi4j.spi.FileIO.MODE_CREATE;
    public static final int MODE_RDONLY = io.github.mpi4j.spi.FileIO.MODE_RDONLY;
    public static final int MODE_WRONLY = io.github.mpi4j.spi.FileIO.MODE_WRONLY;
    public static final int MODE_RDWR = io.github.mpi4j.spi.FileIO.MODE_RDWR;
    public static final int MODE_DELETE_ON_CLOSE = io.github.mpi4j.spi.FileIO.MODE_DELETE_ON_CLOSE;
    public static final int MODE_UNIQUE_OPEN = io.github.mpi4j.spi.FileIO.MODE_UNIQUE_OPEN;
    public static final int MODE_EXCL = io.github.mpi4j.spi.FileIO.MODE_EXCL;
    public static final int MODE_APPEND = io.github.mpi4j.spi.FileIO.MODE_APPEND;
    public static final int MODE_SEQUENTIAL = io.github.mpi4j.spi.FileIO.MODE_SEQUENTIAL;
    public static final int SEEK_SET = io.github.mpi4j.spi.FileIO.SEEK_SET;
    public static final int SEEK_CUR = io.github.mpi4j.spi.FileIO.SEEK_CUR;
    public static final int SEEK_END = io.github.mpi4j.spi.FileIO.SEEK_END;
    /** File.setView displacement of files opened with MODE_SEQUENTIAL: the shared pointer's position. */
    public static final int DISPLACEMENT_CURRENT = -54278278;

    // ---- one-sided windows (issue 11; see Win) ----

    /** Lock types of {@code Win.lock} (Open MPI's values; the MPI backend translates them). */
    public static final int LOCK_EXCLUSIVE = 1, LOCK_SHARED = 2;
    /** Assertions of the window synchronization calls. */
    public static final int MODE_NOCHECK = 1, MODE_NOPRECEDE = 2, MODE_NOPUT = 4, MODE_NOSTORE = 8,
            MODE_NOSUCCEED = 16;
    /** Window attribute keys ({@code Win.getAttr}). */
    public static final int WIN_BASE = 7, WIN_SIZE = 8, WIN_DISP_UNIT = 9, WIN_CREATE_FLAVOR = 10, WIN_MODEL = 11;
    /** Values of WIN_CREATE_FLAVOR and WIN_MODEL. */
    public static final int WIN_FLAVOR_CREATE = 1, WIN_FLAVOR_ALLOCATE = 2, WIN_FLAVOR_DYNAMIC = 3,
            WIN_FLAVOR_SHARED = 4, WIN_UNIFIED = 0, WIN_SEPARATE = 1;

    // ---- spawning processes (issue 11 item 3; see Intracomm.spawn) ----

    /** No arguments for a spawned command (MPI_ARGV_NULL): the Open MPI bindings take null. */
    public static final String[] ARGV_NULL = null;
    /** No arguments for any command of spawnMultiple (MPI_ARGVS_NULL). */
    public static final String[][] ARGVS_NULL = null;
    /** No error codes wanted from a spawn (MPI_ERRCODES_IGNORE): the Open MPI bindings take null. */
    public static final int[] ERRCODES_IGNORE = null;
}
