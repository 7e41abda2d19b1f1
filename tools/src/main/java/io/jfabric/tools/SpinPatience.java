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
package io.jfabric.tools;

/**
 * How long a busy-wait has found nothing, for the tools' spin loops (pingpong, the lane floor): the clock is read
 * only every {@link #POLLS_PER_CLOCK_CHECK} empty polls, so spinning stays cheap and a wait that ends sooner never
 * reads it. One thread.
 */
public final class SpinPatience
{
    /** Empty polls between two clock reads. */
    public static final int POLLS_PER_CLOCK_CHECK = 4096;

    private final long timeoutNanos;
    private int polls;
    private long deadline;

    /**
     * @param timeoutNanos how long a wait may find nothing before {@link #exhausted()} says so.
     */
    public SpinPatience(final long timeoutNanos)
    {
        this.timeoutNanos = timeoutNanos;
    }

    /** @return the timeout given to the constructor, in nanoseconds. */
    public long timeoutNanos()
    {
        return timeoutNanos;
    }

    /** Something happened: the next wait starts afresh. */
    public void reset()
    {
        polls = 0;
        deadline = 0;
    }

    /**
     * Count one empty poll.
     *
     * @return whether nothing has happened for longer than the timeout (checked every
     * {@link #POLLS_PER_CLOCK_CHECK} polls, the first check starting the clock).
     */
    public boolean exhausted()
    {
        if (++polls % POLLS_PER_CLOCK_CHECK != 0)
        {
            return false;
        }
        final long now = System.nanoTime();
        if (deadline == 0)
        {
            deadline = now + timeoutNanos;
            return false;
        }
        return now - deadline > 0;
    }
}
