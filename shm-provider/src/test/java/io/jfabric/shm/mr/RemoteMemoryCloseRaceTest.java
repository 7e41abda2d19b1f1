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
package io.jfabric.shm.mr;

import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.ShareableMemory;
import io.jfabric.shm.domain.ShmDomain;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static io.jfabric.Errno.FI_EBADF;
import static io.jfabric.Flags.FI_REMOTE_READ;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Closing a {@link RemoteMemory} view from another thread while its thread copies must never crash the JVM: the
 * copy ends, and the reader's next call returns -FI_EBADF (second review, item 2). Before the fix this test took
 * the whole test JVM down with SIGSEGV.
 */
class RemoteMemoryCloseRaceTest
{
    private static final int LENGTH = 1 << 24;

    private final MrTestDomains domains = new MrTestDomains();

    @AfterEach
    void tearDown()
    {
        domains.close();
    }

    @Test
    void shouldNotCrashWhenAViewIsClosedUnderACopyOfAnotherThread() throws Exception
    {
        final ShmDomain owner = domains.open("race", 0);
        final ShmDomain peer = domains.open("race", 0);
        final UnsafeBuffer dst = new UnsafeBuffer(new byte[LENGTH]);
        try (ShareableMemory m = owner.allocShareable(LENGTH);
            MemoryRegion mr = owner.mrRegv(new MrIov[]{MrIov.of(m, 0, LENGTH)}, FI_REMOTE_READ, 0, 70, 0, 0))
        {
            for (int round = 0; round < 100; round++)
            {
                final RemoteMemory remote = peer.remoteMemory();
                assertEquals(0, remote.read(70, 0, dst, 0, LENGTH));
                final AtomicInteger last = new AtomicInteger();
                final Thread reader = new Thread(() ->
                {
                    int rc;
                    while ((rc = remote.read(70, 0, dst, 0, LENGTH)) == 0)
                    {
                        Thread.onSpinWait();
                    }
                    last.set(rc);
                });
                reader.start();
                Thread.sleep(2);
                remote.close();
                reader.join();
                assertEquals(-FI_EBADF, last.get(), "round " + round);
                assertEquals(0, remote.mappedSegments(), "the reader's next call unmaps, on its own thread");
            }
        }
    }
}
