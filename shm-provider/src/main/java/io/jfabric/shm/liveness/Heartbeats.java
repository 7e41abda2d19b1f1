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
package io.jfabric.shm.liveness;

import io.jfabric.shm.region.SlotDescriptor;

import org.agrona.concurrent.AtomicBuffer;

import java.util.Arrays;

/**
 * This process's heartbeat, and the clock the data path reads instead of the system's: one daemon thread,
 * {@code jfabric-heartbeat}, which every {@value #TICK_MS} ms stores the time (epoch milliseconds) in the heartbeat
 * word ({@link SlotDescriptor#HEARTBEAT_OFFSET}) of every enabled endpoint slot of this process, and in
 * {@link #nowMs()}. A peer whose heartbeat stops moving is stopped (SIGSTOP, a debugger, a machine that froze) or
 * gone; peers judge that against their domain's liveness timeout ({@link PeerLiveness}). As in Aeron's client
 * keepalive, the heartbeat says the process runs, not that the application polls: a live process that does not
 * progress is slow, and its peers see back-pressure (FI_EAGAIN), not an error.
 * <p>
 * The same thread runs the other once-a-tick {@link Task}s of the provider (each open domain's region watch), and
 * looks in {@code /proc} at the peer processes {@link ProcessWatch} is asked about, so the data path never does. An
 * {@link InternalError} a task raises (a mapping that faulted: its file was truncated) is dropped, so the thread
 * keeps beating for the other regions; the region's watch reports the fault.
 * <p>
 * The thread runs while some endpoint is enabled or task registered, and ends with the last one. A registration is
 * removed before its
 * endpoint's slot is released, and {@link #unregister} waits for a pass in progress, so the thread never writes
 * into a region after its owner let it go. {@link #nowMs()} is one volatile load; its value is at most one tick old
 * while the thread runs (and the system clock when it does not).
 * <p>
 * Thread safe.
 */
public final class Heartbeats
{
    /** Milliseconds between two heartbeats (and two updates of {@link #nowMs()}). */
    public static final long TICK_MS = 10;

    private static final Object LOCK = new Object();
    private static volatile long now = System.currentTimeMillis();
    private static Registration[] registrations = new Registration[0];
    private static Thread thread;

    /** Work done once a tick on the heartbeat thread: short, never blocking, never taking a lock of a domain. */
    @FunctionalInterface
    public interface Task
    {
        /**
         * @param nowMs the time, epoch milliseconds.
         */
        void onTick(long nowMs);
    }

    private Heartbeats()
    {
    }

    /** @return the time, epoch milliseconds, at most one tick old: one volatile load. Any thread. */
    public static long nowMs()
    {
        return now;
    }

    /**
     * Start beating for a slot (its heartbeat is written now, then every tick). Control path.
     *
     * @param region          the domain region.
     * @param heartbeatOffset the region offset of the slot's heartbeat word.
     * @return the registration, to {@link #unregister}.
     */
    public static Registration register(final AtomicBuffer region, final int heartbeatOffset)
    {
        return register((t) -> region.putLongOrdered(heartbeatOffset, t));
    }

    /**
     * Run a task every tick, the first time now. Control path.
     *
     * @param task the task.
     * @return the registration, to {@link #unregister}.
     */
    public static Registration register(final Task task)
    {
        final Registration r = new Registration(task);
        synchronized (LOCK)
        {
            final long t = System.currentTimeMillis();
            now = t;
            r.beat(t);
            registrations = Arrays.copyOf(registrations, registrations.length + 1);
            registrations[registrations.length - 1] = r;
            if (thread == null)
            {
                thread = new Thread(Heartbeats::run, "jfabric-heartbeat");
                thread.setDaemon(true);
                thread.start();
            }
        }
        return r;
    }

    /**
     * Stop beating for a slot, or running a task; on return the thread does so no more. Control path.
     *
     * @param r a registration.
     */
    public static void unregister(final Registration r)
    {
        synchronized (LOCK)
        {
            final Registration[] old = registrations;
            int n = 0;
            final Registration[] kept = new Registration[old.length];
            for (final Registration x : old)
            {
                if (x != r)
                {
                    kept[n++] = x;
                }
            }
            registrations = Arrays.copyOf(kept, n);
            if (n == 0 && thread != null)
            {
                thread.interrupt();
                thread = null;
            }
        }
    }

    private static void run()
    {
        final Thread self = Thread.currentThread();
        while (!self.isInterrupted())
        {
            try
            {
                final long t;
                synchronized (LOCK)
                {
                    if (thread != self)
                    {
                        return;
                    }
                    t = System.currentTimeMillis();
                    now = t;
                    for (final Registration r : registrations)
                    {
                        r.beat(t);
                    }
                }
                ProcessWatch.onTick(t); // outside the lock: it reads /proc, and writes no region
                Thread.sleep(TICK_MS);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            catch (final InternalError ex)
            {
                // A beat into a region whose file was truncated: Java 17 raises it here, after the beat.
            }
        }
    }

    /** One slot beaten for, or one task run. */
    public static final class Registration
    {
        private final Task task;

        private Registration(final Task task)
        {
            this.task = task;
        }

        private void beat(final long t)
        {
            try
            {
                task.onTick(t);
            }
            catch (final InternalError ex)
            {
                // A region whose file was truncated: its watch reports it; the other registrations still run.
            }
        }
    }
}
