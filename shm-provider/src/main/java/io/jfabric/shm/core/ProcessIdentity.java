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
package io.jfabric.shm.core;

import io.jfabric.Errno;
import io.jfabric.FabricException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The identity of a process as one {@code long}: what every shared table records as the owner of something (a lock
 * word, a claimed entry, a registration, a counter, an endpoint slot), and the one place that decides whether the
 * owner so recorded is gone. A pid alone is not enough: pids are reused, and in a container the JVM is often pid 1
 * on every run, so a crashed owner's pid is the restarted process's own pid.
 * <pre>
 *    63 62 61                                        22 21                        0
 *   +-----+-------------------------------------------+---------------------------+
 *   |  0  |  start: 1 + process start in clock ticks  |  pid (1 .. 2^22 - 1)      |
 *   |     |  since boot (START_BITS bits); 0 unknown  |                           |
 *   +-----+-------------------------------------------+---------------------------+
 * </pre>
 * <ul>
 *   <li>The pid fits in {@link #PID_BITS} bits: Linux refuses a {@code /proc/sys/kernel/pid_max} above
 *   {@code PID_MAX_LIMIT} (2^22 on 64-bit kernels), and pids are below pid_max. A process with a larger pid (another
 *   kernel) cannot get an identity: {@link #self()} fails with {@link Errno#FI_ENOSYS}.</li>
 *   <li>The start time is field 22 of {@code /proc/<pid>/stat}: clock ticks (USER_HZ, 100 a second) since boot,
 *   stored plus one so that 0 can mean "unknown". It is read from the kernel as a number, not computed from the wall
 *   clock, so every process on the host sees the same value for the same process, whatever happens to the clock.
 *   ({@code ProcessHandle.Info.startInstant()} is derived from it plus a boot time each JVM reads once from
 *   {@code /proc/stat} in whole seconds; that boot time moves when the wall clock is stepped, so two JVMs can
 *   disagree about the same process, and a live owner would be judged gone.) {@link #START_BITS} bits of ticks last
 *   348 years of uptime, so nothing is lost in practice.</li>
 *   <li>The top two bits are 0, so a table may shift the identity left by two to tag it
 *   ({@code io.jfabric.shm.av.AvDescriptor#claimed}); the identity is never 0 because no process has pid 0, so 0
 *   keeps meaning "no owner" in a CAS word.</li>
 * </ul>
 * When the start time cannot be read ({@code /proc} not mounted, or not Linux) the start bits are 0, "unknown", and
 * such an identity is judged by its pid alone, as before: a reused pid then keeps its entries. An identity whose
 * start is known is gone when no process has its pid, when that process is a zombie (it can release nothing), or
 * when the process with its pid started at another tick (the pid was reused). Precision: one clock tick (10 ms); a
 * pid reused within the same tick is not told apart, which needs the pid space to wrap in 10 ms. Pids are those of
 * this pid namespace: processes sharing a root directory across pid namespaces are not supported.
 * <p>
 * Control path only: {@link #isGone} reads a small {@code /proc} file and allocates (a few microseconds); it never
 * belongs on a data path. Stateless apart from this process's own identity, computed once; any thread.
 */
public final class ProcessIdentity
{
    /** Bits of the pid, the low bits of an identity. */
    public static final int PID_BITS = 22;

    /** Mask of the pid bits. */
    public static final long PID_MASK = (1L << PID_BITS) - 1;

    /** Bits of the start time, above the pid. */
    public static final int START_BITS = 40;

    /** Mask of the start time bits, once shifted down. */
    public static final long START_MASK = (1L << START_BITS) - 1;

    /** Field of {@code /proc/<pid>/stat} holding the start time (1-based, as proc(5) numbers them). */
    private static final int STAT_START_TIME_FIELD = 22;

    /** Field of {@code /proc/<pid>/stat} holding the state (1-based). */
    private static final int STAT_STATE_FIELD = 3;

    /** What {@link #startOf} returns when no process has the pid, or it is a zombie. */
    private static final long NO_PROCESS = -1;

    /** What {@link #startOf} returns when the process exists but its start time cannot be read. */
    private static final long START_UNKNOWN = 0;

    private static final long SELF_PID = ProcessHandle.current().pid();
    private static final long SELF = SELF_PID > 0 && SELF_PID <= PID_MASK ?
        of(SELF_PID, Math.max(START_UNKNOWN, startOf(SELF_PID))) : 0;

    private ProcessIdentity()
    {
    }

    /**
     * This process's identity, computed once.
     *
     * @return the identity, never 0.
     * @throws FabricException {@link Errno#FI_ENOSYS} when this process's pid does not fit {@link #PID_BITS} bits.
     */
    public static long self()
    {
        if (SELF == 0)
        {
            throw new FabricException(Errno.FI_ENOSYS, "shm: this process's pid " + SELF_PID + " does not fit the " +
                PID_BITS + " bits shared tables record owners with (Linux pids stay below 2^22)");
        }
        return SELF;
    }

    /**
     * Make an identity from its parts.
     *
     * @param pid   a pid, 1 to {@link #PID_MASK}.
     * @param start 1 + start time in clock ticks since boot, as {@link #start(long)} gives it; only the low
     *              {@link #START_BITS} bits are kept; 0 unknown.
     * @return the identity.
     * @throws IllegalArgumentException when the pid is out of range.
     */
    public static long of(final long pid, final long start)
    {
        if (pid <= 0 || pid > PID_MASK)
        {
            throw new IllegalArgumentException("pid " + pid + " not in [1, " + PID_MASK + "]");
        }
        return ((start & START_MASK) << PID_BITS) | pid;
    }

    /**
     * The identity of a running process, as that process's own {@link #self()} gives it.
     *
     * @param pid a pid, 1 to {@link #PID_MASK}.
     * @return its identity, or 0 when no process has that pid.
     */
    public static long ofLiveProcess(final long pid)
    {
        final long start = startOf(pid);
        return start == NO_PROCESS ? 0 : of(pid, start);
    }

    /**
     * @param identity an identity.
     * @return its pid.
     */
    public static long pid(final long identity)
    {
        return identity & PID_MASK;
    }

    /**
     * @param identity an identity.
     * @return its start time bits: 1 + clock ticks since boot; 0 when unknown.
     */
    public static long start(final long identity)
    {
        return (identity >>> PID_BITS) & START_MASK;
    }

    /**
     * Decide whether the process an identity names is gone, so what it owns may be taken over. This process is never
     * gone; another process with this process's pid is (the pid was reused).
     *
     * @param identity a recorded owner; 0 (no owner) counts as gone.
     * @return true when no process has its pid, the process with its pid is a zombie, or started at another time.
     */
    public static boolean isGone(final long identity)
    {
        final long pid = pid(identity);
        if (pid == 0)
        {
            return true;
        }
        if (identity == SELF)
        {
            return false;
        }
        final long recordedStart = start(identity);
        if (pid == SELF_PID)
        {
            return recordedStart != START_UNKNOWN && start(SELF) != START_UNKNOWN;
        }
        final long liveStart = startOf(pid);
        if (liveStart == NO_PROCESS)
        {
            return true;
        }
        return recordedStart != START_UNKNOWN && liveStart != START_UNKNOWN &&
            recordedStart != (liveStart & START_MASK);
    }

    /**
     * For messages: the pid, and the start time when known.
     *
     * @param identity an identity.
     * @return e.g. {@code "process 4242 (started 1234567 ticks after boot)"}.
     */
    public static String describe(final long identity)
    {
        final long start = start(identity);
        return "process " + pid(identity) +
            (start == START_UNKNOWN ? "" : " (started " + (start - 1) + " ticks after boot)");
    }

    /**
     * Read a process's start time from {@code /proc/<pid>/stat}.
     *
     * @param pid a pid.
     * @return 1 + its start in clock ticks since boot; {@link #NO_PROCESS} when no process has the pid or it is a
     * zombie; {@link #START_UNKNOWN} when it cannot be told (no {@code /proc}: then {@link ProcessHandle} says whether
     * it lives).
     */
    private static long startOf(final long pid)
    {
        final byte[] stat;
        try
        {
            stat = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "stat"));
        }
        catch (final NoSuchFileException ex)
        {
            return Files.isDirectory(Path.of("/proc", "self")) ? NO_PROCESS : aliveWithoutProc(pid);
        }
        catch (final IOException | SecurityException ex)
        {
            return aliveWithoutProc(pid);
        }
        return parseStat(new String(stat, StandardCharsets.US_ASCII));
    }

    private static long aliveWithoutProc(final long pid)
    {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) ? START_UNKNOWN : NO_PROCESS;
    }

    /**
     * Parse a {@code /proc/<pid>/stat} line: "pid (comm) state ppid ..."; comm may hold spaces and parentheses, so
     * the fields are counted from the last ')'.
     *
     * @param stat the line.
     * @return 1 + the start time field; {@link #NO_PROCESS} for a zombie or dead process; {@link #START_UNKNOWN} when
     * the line cannot be parsed.
     */
    static long parseStat(final String stat)
    {
        final int commEnd = stat.lastIndexOf(')');
        if (commEnd < 0)
        {
            return START_UNKNOWN;
        }
        final String[] fields = stat.substring(commEnd + 1).trim().split(" ");
        final int stateIndex = 0;
        final int startIndex = STAT_START_TIME_FIELD - STAT_STATE_FIELD;
        if (fields.length <= startIndex)
        {
            return START_UNKNOWN;
        }
        final String state = fields[stateIndex];
        if ("Z".equals(state) || "X".equals(state) || "x".equals(state))
        {
            return NO_PROCESS;
        }
        try
        {
            return Long.parseLong(fields[startIndex]) + 1;
        }
        catch (final NumberFormatException ex)
        {
            return START_UNKNOWN;
        }
    }
}
