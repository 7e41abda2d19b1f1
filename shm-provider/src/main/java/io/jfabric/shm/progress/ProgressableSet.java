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

import java.util.Arrays;

/**
 * The objects a queue, counter or agent progresses: copied on change (control path, synchronized) and read without
 * a lock on the data path, so progressing them allocates nothing and never waits for a bind or close.
 */
public final class ProgressableSet
{
    private static final Progressable[] NONE = new Progressable[0];

    private volatile Progressable[] members = NONE;

    /**
     * @param p an object to progress from now on.
     */
    public synchronized void add(final Progressable p)
    {
        final Progressable[] old = members;
        final Progressable[] grown = Arrays.copyOf(old, old.length + 1);
        grown[old.length] = p;
        members = grown;
    }

    /**
     * @param p an object to progress no longer (every occurrence).
     * @return objects left.
     */
    public synchronized int remove(final Progressable p)
    {
        final Progressable[] old = members;
        int n = 0;
        final Progressable[] kept = new Progressable[old.length];
        for (final Progressable m : old)
        {
            if (m != p)
            {
                kept[n++] = m;
            }
        }
        members = n == 0 ? NONE : Arrays.copyOf(kept, n);
        return n;
    }

    /** @return the members now; do not modify. */
    public Progressable[] members()
    {
        return members;
    }

    /** @return work done by progressing every member once. */
    public int progressAll()
    {
        int work = 0;
        for (final Progressable p : members)
        {
            work += p.progress();
        }
        return work;
    }
}
