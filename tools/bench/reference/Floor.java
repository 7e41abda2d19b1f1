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

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

/**
 * The physical floor for inter-process latency on this host: two JVMs ping-pong one sequence number
 * through two cache lines of a file mapped from /dev/shm, with nothing else on the path.
 * Usage: java Floor.java ping|pong ROUND_TRIPS [FILE]; run pong first, then ping. Ping prints RTT percentiles.
 */
public final class Floor
{
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final int PING = 0, PONG = 128, READY = 256;

    public static void main(final String[] args) throws Exception
    {
        final boolean ping = "ping".equals(args[0]);
        final int rounds = Integer.parseInt(args[1]);
        final Path file = Path.of(args.length > 2 ? args[2] : "/dev/shm/jfabric-floor");
        final MappedByteBuffer b;
        try (FileChannel ch = FileChannel.open(file, CREATE, READ, WRITE))
        {
            b = ch.map(FileChannel.MapMode.READ_WRITE, 0, 4096);
        }
        final int mine = ping ? PING : PONG, theirs = ping ? PONG : PING;
        if (!ping)
        {
            LONG.setVolatile(b, PING, 0L);
            LONG.setVolatile(b, PONG, 0L);
            LONG.setVolatile(b, READY, 1L);
        }
        else
        {
            while ((long)LONG.getVolatile(b, READY) != 1L)
            {
                Thread.onSpinWait();
            }
        }
        final int warmup = Math.min(rounds, 200_000);
        final long[] rtt = new long[rounds];
        for (long i = 1; i <= warmup + rounds; i++)
        {
            if (ping)
            {
                final long t0 = System.nanoTime();
                LONG.setRelease(b, mine, i);
                while ((long)LONG.getAcquire(b, theirs) != i)
                {
                    Thread.onSpinWait();
                }
                if (i > warmup)
                {
                    rtt[(int)(i - warmup - 1)] = System.nanoTime() - t0;
                }
            }
            else
            {
                while ((long)LONG.getAcquire(b, theirs) != i)
                {
                    Thread.onSpinWait();
                }
                LONG.setRelease(b, mine, i);
            }
        }
        if (ping)
        {
            Arrays.sort(rtt);
            System.out.printf("floor rtt_ns p50=%d p90=%d p99=%d p99.9=%d max=%d rounds=%d%n",
                rtt[rounds / 2], rtt[(int)(rounds * 0.9)], rtt[(int)(rounds * 0.99)],
                rtt[(int)(rounds * 0.999)], rtt[rounds - 1], rounds);
            Files.deleteIfExists(file);
        }
    }
}
