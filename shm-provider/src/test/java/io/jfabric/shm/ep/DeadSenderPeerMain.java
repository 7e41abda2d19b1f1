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

import io.jfabric.CqEntries;
import io.jfabric.Endpoint;

import java.nio.ByteBuffer;

/**
 * Child JVM for {@link LaneRecoveryTest}: sends one {@code args[2]}-byte message from unregistered memory (so it
 * goes in pieces) to the address in {@code args[1]} (domain {@code args[0]}), progresses for a while so the first
 * pieces fill the receiver's lane, then halts with the rest still queued, as a process that crashes part-way
 * through a large send would. Byte {@code i} of the message is {@link Pattern#at}{@code (5, i)}.
 */
public final class DeadSenderPeerMain
{
    private DeadSenderPeerMain()
    {
    }

    /**
     * @param args domain name, receiver address, message length.
     */
    public static void main(final String[] args)
    {
        final ChildEndpoint child = new ChildEndpoint(args[0], args[1]);
        final Endpoint ep = child.ep;
        final int length = Integer.parseInt(args[2]);
        final ByteBuffer buf = ByteBuffer.allocateDirect(length);
        for (int i = 0; i < length; i++)
        {
            buf.put(i, Pattern.at(5, i));
        }
        final long rc = ep.send(buf, 0, length, 0, child.dest, 1);
        final CqEntries entries = new CqEntries(4);
        final long until = System.nanoTime() + 300_000_000L;
        while (System.nanoTime() < until)
        {
            child.cq.read(entries, 4); // progress: pieces go out while the receiver's lane has room
        }
        System.out.println("queued " + rc);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
