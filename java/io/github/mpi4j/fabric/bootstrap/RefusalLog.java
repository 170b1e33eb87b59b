package io.github.mpi4j.fabric.bootstrap;

import java.net.SocketAddress;
import java.util.function.Consumer;

/**
 * Logs connections the rendezvous store refused, at a bounded rate: a port scan or a flood of
 * probes must not turn into thousands of lines. The first {@link #LINES_PER_WINDOW} refusals of
 * each {@link #WINDOW_MS} window are shown with their reason; the rest are counted and the count
 * is reported when the next window starts (or the store closes).
 */
final class RefusalLog {
    static final int LINES_PER_WINDOW = 5;
    static final long WINDOW_MS = 10_000;

    private final Consumer<String> log;
    private long windowStart = System.currentTimeMillis();
    private int shown;
    private int hidden;

    RefusalLog(Consumer<String> log) {
        this.log = log;
    }

    synchronized void refused(SocketAddress from, String why) {
        long now = System.currentTimeMillis();
        if (now - windowStart >= WINDOW_MS) {
            flush();
            windowStart = now;
            shown = 0;
        }
        if (shown < LINES_PER_WINDOW) {
            shown++;
            String more = shown == LINES_PER_WINDOW ? " (further refusals in the next " + WINDOW_MS / 1000
                    + " s are only counted)" : "";
            log.accept("rendezvous: refused a connection from " + from + ": " + why + more);
        } else {
            hidden++;
        }
    }

    /** Reports how many refusals were not shown, if any. */
    synchronized void flush() {
        if (hidden > 0) {
            log.accept("rendezvous: " + hidden + " more refused connection(s) not shown");
            hidden = 0;
        }
    }
}
