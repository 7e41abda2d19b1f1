/*
 * Copyright 2026 the jfabric authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 * https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.jfabric.ofi.lib;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Keeps the JVM's signal handlers in place across libfabric. Debian's libfabric links PSM's
 * {@code libinfinipath.so.4}, which installs its own SIGSEGV, SIGBUS, SIGILL, SIGINT and SIGTERM handlers (they print
 * a backtrace and exit); the JVM relies on SIGSEGV for its null checks and safepoints, so with that handler in place
 * the first implicit null check kills the process ("terminated with signal 11"). The handlers the JVM installed are
 * saved before libfabric is loaded ({@link #save}) and put back ({@link #restore}) after every call that may load or
 * initialise providers (dlopen, fi_getinfo, fi_fabric). C programs are unaffected: they rely on no handler.
 * <p>
 * The {@code struct sigaction}s are kept as opaque bytes from libc's own {@code sigaction}. Thread safe.
 */
public final class SignalHandlers
{
    /** SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGBUS, SIGFPE, SIGSEGV, SIGUSR2, SIGPIPE, SIGTERM, SIGXFSZ (Linux). */
    private static final int[] SIGNALS = {1, 2, 3, 4, 7, 8, 11, 12, 13, 15, 25};
    private static final long SIGACTION_BYTES = 256;
    private static final MethodHandle SIGACTION;

    static
    {
        final Linker linker = Linker.nativeLinker();
        SIGACTION = linker.downcallHandle(linker.defaultLookup().find("sigaction").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    }

    private final MemorySegment saved;
    private volatile boolean reported;

    private SignalHandlers(final MemorySegment saved)
    {
        this.saved = saved;
    }

    /**
     * @return the handlers installed now (the JVM's), to restore later.
     */
    public static SignalHandlers save()
    {
        final MemorySegment saved = Arena.global().allocate(SIGACTION_BYTES * SIGNALS.length, 16);
        for (int i = 0; i < SIGNALS.length; i++)
        {
            sigaction(SIGNALS[i], MemorySegment.NULL, saved.asSlice(i * SIGACTION_BYTES, SIGACTION_BYTES));
        }
        return new SignalHandlers(saved);
    }

    /**
     * Put back every saved handler that something replaced; logs once which signals were taken.
     */
    public synchronized void restore()
    {
        final StringBuilder taken = new StringBuilder();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment now = arena.allocate(SIGACTION_BYTES, 16);
            for (int i = 0; i < SIGNALS.length; i++)
            {
                final MemorySegment mine = saved.asSlice(i * SIGACTION_BYTES, SIGACTION_BYTES);
                sigaction(SIGNALS[i], MemorySegment.NULL, now);
                if (now.get(JAVA_LONG, 0) != mine.get(JAVA_LONG, 0))
                {
                    sigaction(SIGNALS[i], mine, MemorySegment.NULL);
                    taken.append(taken.length() == 0 ? "" : ", ").append(SIGNALS[i]);
                }
            }
        }
        if (taken.length() > 0 && !reported)
        {
            reported = true;
            System.getLogger(SignalHandlers.class.getName()).log(System.Logger.Level.DEBUG,
                "jfabric ofi: libfabric (PSM's libinfinipath) replaced the JVM's handlers of signals " + taken +
                "; the JVM's are restored");
        }
    }

    private static void sigaction(final int signal, final MemorySegment action, final MemorySegment old)
    {
        try
        {
            final int rc = (int)SIGACTION.invokeExact(signal, action, old);
            if (rc != 0)
            {
                throw new IllegalStateException("sigaction(" + signal + ") failed");
            }
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("sigaction", t);
        }
    }
}
