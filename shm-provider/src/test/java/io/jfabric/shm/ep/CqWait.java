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
package io.jfabric.shm.ep;

import io.jfabric.CompletionQueue;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.Errno;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The next completion of a CQ, success or error, for tests of operations that complete one at a time (RMA,
 * atomics).
 */
final class CqWait
{
    private CqWait()
    {
    }

    /**
     * @param cq a CQ of a format with flags.
     * @return the flags of the next successful completion, or the negated errno of the next error entry.
     * @throws AssertionError when none comes within 10 s.
     */
    static long next(final CompletionQueue cq)
    {
        final CqEntries entries = new CqEntries(1);
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline)
        {
            final int n = cq.read(entries, 1);
            if (n == 1)
            {
                return entries.flags[0];
            }
            if (n == -Errno.FI_EAVAIL)
            {
                final CqErrEntry err = new CqErrEntry();
                assertEquals(1, cq.readErr(err, 0));
                return -err.err;
            }
        }
        throw new AssertionError("no completion in 10 s");
    }
}
