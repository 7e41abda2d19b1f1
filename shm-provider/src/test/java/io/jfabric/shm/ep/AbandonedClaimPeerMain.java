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

import io.jfabric.Endpoint;

import java.nio.ByteBuffer;

/**
 * Child JVM for {@link LaneRecoveryTest}: sends three messages to the address in {@code args[1]} (domain
 * {@code args[0]}), then claims room for another, writes half of it, sends a fourth message (committed behind the
 * open claim) and halts without committing the claim, as a process that crashes in the middle of a zero-copy send
 * would.
 */
public final class AbandonedClaimPeerMain
{
    private AbandonedClaimPeerMain()
    {
    }

    /**
     * @param args domain name, receiver address.
     */
    public static void main(final String[] args)
    {
        final ChildEndpoint child = new ChildEndpoint(args[0], args[1]);
        final Endpoint ep = child.ep;
        final ByteBuffer buf = ByteBuffer.allocateDirect(64);
        for (int i = 1; i <= 3; i++)
        {
            buf.putLong(0, i);
            while (ep.inject(buf, 0, 64, child.dest) != 0)
            {
                Thread.onSpinWait();
            }
        }
        while (ep.claim(child.dest, 64, 0, 0, 0) != 0)
        {
            Thread.onSpinWait();
        }
        ep.messageClaim().buffer().putLong(ep.messageClaim().offset(), 99);
        buf.putLong(0, 4);
        while (ep.inject(buf, 0, 64, child.dest) != 0)
        {
            Thread.onSpinWait();
        }
        System.out.println("claimed");
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
