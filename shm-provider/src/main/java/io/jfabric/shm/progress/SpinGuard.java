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
package io.jfabric.shm.progress;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The lock a threading model needs around an object's data path, or none.
 * <p>
 * {@link #NONE} is for objects whose callers the threading model already serializes (fi_domain(3)): it does
 * nothing and the JIT removes it. {@link #spin()} is a test-and-set lock for objects several threads may use at
 * once: uncontended, one CAS to take it and one release store to give it back; contended, callers spin with
 * {@link Thread#onSpinWait()} and then yield. Nothing allocates and nothing throws.
 */
public abstract class SpinGuard
{
    /** A guard that never excludes. */
    /** How long a close waits for a guard of an endpoint whose region faulted ({@link #lockForClose}). */
    public static final long FAULTED_CLOSE_WAIT_NS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(100);

    public static final SpinGuard NONE = new SpinGuard()
    {
        @Override
        public boolean tryLock()
        {
            return true;
        }

        @Override
        public void lock()
        {
        }

        @Override
        public void unlock()
        {
        }
    };

    /** @return a new test-and-set guard. */
    public static SpinGuard spin()
    {
        return new Spin();
    }

    /** @return whether the guard was taken (always, for {@link #NONE}). */
    public abstract boolean tryLock();

    /** Take the guard, waiting as long as it takes. */
    public abstract void lock();

    /**
     * Take the guard for a close: as {@link #lock()}, but when {@code faulted} wait at most {@code timeoutNs}. A
     * region whose file was truncated faults, and a JVM may raise that fault asynchronously, at a later safepoint
     * poll: one that falls just after a guard was taken unwinds its holder past the {@code finally} that gives it
     * back. Nothing enters a faulted region's data path any more, so a close that cannot take the guard in time
     * proceeds without it. Control path.
     *
     * @param faulted   whether the region faulted.
     * @param timeoutNs how long to wait then.
     * @return whether the guard was taken (to give back with {@link #unlock()}).
     */
    public boolean lockForClose(final boolean faulted, final long timeoutNs)
    {
        if (!faulted)
        {
            lock();
            return true;
        }
        final long deadline = System.nanoTime() + timeoutNs;
        while (!tryLock())
        {
            if (System.nanoTime() - deadline >= 0)
            {
                return false;
            }
            Thread.yield();
        }
        return true;
    }

    /** Give the guard back. */
    public abstract void unlock();

    private static final class Spin extends SpinGuard
    {
        private final AtomicInteger state = new AtomicInteger();

        @Override
        public boolean tryLock()
        {
            return state.get() == 0 && state.compareAndSet(0, 1);
        }

        @Override
        public void lock()
        {
            int spins = 0;
            while (!tryLock())
            {
                if (++spins < 100)
                {
                    Thread.onSpinWait();
                }
                else
                {
                    Thread.yield();
                }
            }
        }

        @Override
        public void unlock()
        {
            state.setRelease(0);
        }
    }
}
