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
package io.jfabric.tools.fipp;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.tools.pingpong.Iterations;

import java.io.IOException;
import java.io.PrintWriter;

/**
 * {@code jfabric pingpong -p <native provider>}: libfabric's fi_pingpong ({@code -e rdm}) in Java, its protocol
 * byte for byte (the control channel of {@link FiControl}, the sizes, inject below inject_size, the data check of
 * {@link FiPattern}, the closing "fin" message), so a jfabric side and a C {@code fi_pingpong} side run together in
 * either role, and its output line ({@link FiPerfLine}). Without a server address this side is the server; with
 * one, the client. {@code warmup} iterations of the first size run unmeasured before the first size when both sides
 * are jfabric and were given the same value (a C peer knows no warm-up: leave it 0). One thread.
 *
 * @param provider   the provider name ({@code -p}).
 * @param domain     the domain name ({@code -d}), or null.
 * @param server     the server's address (the client), or null (the server).
 * @param port       the control port ({@code -B} on the server, {@code -P} on the client).
 * @param sizes      the sizes, in order.
 * @param iterations iterations per size ({@code -I}, or its default by size).
 * @param check      whether to check every received byte ({@code -c}).
 * @param tagged     fi_tsend/fi_trecv with tag 1234 ({@code -m tagged}).
 * @param warmup     unmeasured iterations before the first size.
 * @param timeoutSeconds how long the server waits for its client, and the client for its server ({@code --timeout}).
 */
public record FiPingpong(String provider, String domain, String server, int port, int[] sizes, Iterations iterations,
    boolean check, boolean tagged, int warmup, int timeoutSeconds)
{
    private static final int MAX_CTRL_MSG = 64;

    /**
     * @param out where the results go.
     * @return 0, or the errno of what failed.
     */
    public int run(final PrintWriter out, final PrintWriter err)
    {
        final boolean client = server != null;
        int largest = MAX_CTRL_MSG;
        for (final int size : sizes)
        {
            largest = Math.max(largest, size);
        }
        try (FiControl control = FiControl.open(server, port, timeoutSeconds * 1000L, err, "pingpong"))
        {
            final FiControl.Name remote = client ? control.receiveName() : null;
            try (FiEndpoint ep = new FiEndpoint(provider, domain, remote, largest, tagged))
            {
                ep.postRecv();
                control.sendName(ep.ep.getname(), ep.info.addrFormat().value());
                ep.insertPeer(client ? remote.name() : control.receiveName().name());
                final FiPattern pattern = new FiPattern();
                if (warmup > 0)
                {
                    pingpong(ep, control, client, sizes[0], warmup, null);
                }
                boolean header = true;
                for (final int size : sizes)
                {
                    final int count = iterations.count(size);
                    final long[] result = pingpong(ep, control, client, size, count, check ? pattern : null);
                    if (header)
                    {
                        out.println(FiPerfLine.HEADER);
                        header = false;
                    }
                    out.println(FiPerfLine.line(size, count, result[1], result[0], 2));
                    out.flush();
                }
                ep.finish();
                return 0;
            }
        }
        catch (final FabricException ex)
        {
            err.println("pingpong: " + ex.getMessage());
            return ex.errno();
        }
        catch (final DataCorruption ex)
        {
            err.println(ex.getMessage());
            return Errno.FI_EIO;
        }
        catch (final IOException ex)
        {
            err.println("pingpong: control channel: " + ex);
            return Errno.FI_EIO;
        }
    }

    /** @return elapsed microseconds and the received count the peers agreed on. */
    private static long[] pingpong(final FiEndpoint ep, final FiControl control, final boolean client, final int size,
        final int iterations, final FiPattern pattern) throws IOException
    {
        control.sync(client);
        final long start = System.nanoTime();
        long received = 0;
        for (int i = 0; i < iterations; i++)
        {
            if (client)
            {
                send(ep, size, pattern);
                received += receive(ep, size, pattern);
            }
            else
            {
                received += receive(ep, size, pattern);
                send(ep, size, pattern);
            }
        }
        final long elapsedUs = (System.nanoTime() - start) / 1000;
        control.exchangeCount(client, received);
        return new long[] {Math.max(1, elapsedUs), received};
    }

    private static void send(final FiEndpoint ep, final int size, final FiPattern pattern)
    {
        if (pattern != null)
        {
            pattern.fill(ep.tx, size);
        }
        ep.send(size);
    }

    private static int receive(final FiEndpoint ep, final int size, final FiPattern pattern)
    {
        ep.awaitRx();
        if (pattern != null)
        {
            final int bad = pattern.check(ep.rx, size);
            if (bad >= 0)
            {
                throw new DataCorruption("Error at iteration=" + pattern.checkedCount() + " size=" + size + " byte=" +
                    bad);
            }
        }
        ep.postRecv();
        return 1;
    }

    /** A received message that is not what the peer's pattern says. */
    static final class DataCorruption extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        DataCorruption(final String message)
        {
            super(message);
        }
    }
}
