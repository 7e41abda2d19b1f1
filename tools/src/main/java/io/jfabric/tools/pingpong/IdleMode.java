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
package io.jfabric.tools.pingpong;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.Locale;

/**
 * What a pingpong side does after a CQ poll that found nothing ({@code --idle}): the Agrona {@link IdleStrategy}
 * it waits with. {@link #BUSY} (the default) spins, which is what latency wants and what fi_pingpong does; the others
 * trade latency for CPU, with the numbers the shm provider's progress agents use by default
 * ({@code jfabric.shm.progress.idle}, {@code jfabric.shm.progress.sleep.ns}). Immutable; any thread.
 */
public enum IdleMode
{
    /** Spin ({@link Thread#onSpinWait()}): the lowest latency, one core per side. */
    BUSY,
    /** {@link Thread#yield()} after every empty poll. */
    YIELD,
    /** Spin {@link #BACKOFF_SPINS} times, yield {@link #BACKOFF_YIELDS} times, then park 1 us doubling up to 50 us. */
    BACKOFF,
    /** Park {@link #SLEEP_NS} after every empty poll. */
    SLEEP;

    /** Spins of {@link #BACKOFF} before it yields. */
    static final int BACKOFF_SPINS = 100;
    /** Yields of {@link #BACKOFF} before it parks. */
    static final int BACKOFF_YIELDS = 100;
    /** The shortest park of {@link #BACKOFF}. */
    static final long MIN_PARK_NS = 1_000;
    /** The park of {@link #SLEEP}, and the longest of {@link #BACKOFF}. */
    static final long SLEEP_NS = 50_000;

    /** The values {@link #parse} takes, for messages and help. */
    static final String NAMES = "busy|yield|backoff|sleep";

    /** @return the option's value for this mode. */
    public String cliName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return a new strategy of this mode, for one thread. */
    IdleStrategy strategy()
    {
        switch (this)
        {
            case YIELD:
                return new YieldingIdleStrategy();
            case BACKOFF:
                return new BackoffIdleStrategy(BACKOFF_SPINS, BACKOFF_YIELDS, MIN_PARK_NS, SLEEP_NS);
            case SLEEP:
                return new SleepingIdleStrategy(SLEEP_NS);
            default:
                return new BusySpinIdleStrategy();
        }
    }

    /**
     * @param text the option's value.
     * @return the mode it names.
     * @throws IllegalArgumentException when it names none.
     */
    static IdleMode parse(final String text)
    {
        for (final IdleMode mode : values())
        {
            if (mode.cliName().equals(text.toLowerCase(Locale.ROOT)))
            {
                return mode;
            }
        }
        throw new IllegalArgumentException("--idle must be " + NAMES + ", was '" + text + "'");
    }
}
