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

import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.shm.mr.RemoteMemory;
import io.jfabric.testsupport.ChildJvm;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Issue 26 item 2: every call that writes into a local buffer refuses a read-only one with -FI_EINVAL, as a receive
 * does, on the one-sided path (the target's shareable region) and the emulated one (its heap region), the target
 * being a second JVM ({@link EmulatedPeerMain}). A {@code READ_ONLY} file mapping is tried in a third JVM
 * ({@link ReadOnlyInitiatorMain}), since writing into one kills the JVM with SIGSEGV: it must end normally. Views made
 * with {@link ByteBuffer#asReadOnlyBuffer()} are tried here: the memory behind them must stay untouched.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReadOnlyDestinationTest
{
    private static final String DOMAIN = "rodest";
    private static final long HEAP_KEY = 7;
    private static final long SHARED_KEY = 11;

    private EmulatedTargetSession session;
    private long heapBase;
    private long sharedBase;

    @BeforeAll
    void start() throws Exception
    {
        session = new EmulatedTargetSession(DOMAIN, 65536);
        heapBase = session.address("base");
        sharedBase = session.address("sbase");
        assertEquals("5", session.ask("fill 5").get("filled"));
        final ByteBuffer pattern = ByteBuffer.allocateDirect(64);
        for (int i = 0; i < 64; i++)
        {
            pattern.put(i, (byte)(i + 1));
        }
        assertEquals(0, session.ep.write(pattern, 0, 64, 0, session.peer, sharedBase, SHARED_KEY, 9));
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, CqWait.next(session.cq), "the shareable region holds no zero byte");
    }

    @AfterAll
    void stop() throws Exception
    {
        session.close();
    }

    @Test
    void shouldRefuseAReadOnlyHeapViewOnBothPathsAndLeaveItsMemoryUntouched()
    {
        final ByteBuffer memory = ByteBuffer.allocate(64);
        assertRefusedAndUntouched(memory.asReadOnlyBuffer(), memory);
    }

    @Test
    void shouldRefuseAReadOnlyDirectViewOnBothPathsAndLeaveItsMemoryUntouched()
    {
        final ByteBuffer memory = ByteBuffer.allocateDirect(64);
        assertRefusedAndUntouched(memory.asReadOnlyBuffer(), memory);
    }

    private void assertRefusedAndUntouched(final ByteBuffer readOnly, final ByteBuffer memory)
    {
        for (final Map.Entry<String, Long> call : calls(readOnly).entrySet())
        {
            assertEquals(-Errno.FI_EINVAL, call.getValue(), call.getKey());
        }
        assertEquals(0, ReadOnlyInitiatorMain.drain(session.cq, 300), "nothing was issued, so nothing completes");
        for (int i = 0; i < memory.capacity(); i++)
        {
            assertEquals(0, memory.get(i), "byte " + i + " behind the read-only view");
        }
    }

    private Map<String, Long> calls(final ByteBuffer readOnly)
    {
        final Map<String, Long> rc = ReadOnlyInitiatorMain.callAll(session.ep, readOnly, session.peer, sharedBase,
            SHARED_KEY, "shared");
        rc.putAll(ReadOnlyInitiatorMain.callAll(session.ep, readOnly, session.peer, heapBase, HEAP_KEY, "heap"));
        return rc;
    }

    @Test
    void shouldRefuseAReadOnlyFileMappingInEveryCallFormAndKeepTheJvmAlive() throws Exception
    {
        final ChildJvm initiator = ChildJvm.start(ReadOnlyInitiatorMain.class,
            List.of("jfabric.shm.dir=" + session.root.dir()), DOMAIN, session.hello.get("addr"), "" + SHARED_KEY,
            "" + sharedBase, "" + HEAP_KEY, "" + heapBase, session.root.dir().resolve("read-only-mapping").toString());
        try (initiator)
        {
            final Map<String, String> rc = initiator.awaitResult(60);
            assertEquals(20, rc.size(), "every call form, both paths: " + rc);
            for (final Map.Entry<String, String> call : rc.entrySet())
            {
                assertEquals("" + -Errno.FI_EINVAL, call.getValue(), call.getKey());
            }
            assertEquals("0", initiator.awaitResult(30).get("completions"), "nothing was issued");
            final String transcript = initiator.awaitSuccess(30);
            assertFalse(transcript.contains("SIGSEGV"), transcript);
        }
    }

    @Test
    void shouldRefuseAReadOnlyDestinationInTheApplicationsRemoteMemoryView()
    {
        try (RemoteMemory view = ((io.jfabric.shm.domain.ShmDomain)session.domain).remoteMemory())
        {
            final ByteBuffer memory = ByteBuffer.allocateDirect(16);
            assertEquals(-Errno.FI_EINVAL,
                view.read(SHARED_KEY, sharedBase, new UnsafeBuffer(memory.asReadOnlyBuffer()), 0, 16));
            assertEquals(0, memory.getLong(0));
            assertEquals(0, view.read(SHARED_KEY, sharedBase, new UnsafeBuffer(memory), 0, 16), "a writable one");
        }
    }
}
