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
 * {@code jfabric bw -p <native provider>}: a streaming bandwidth run over fi_pingpong's control channel
 * ({@link FiControl}: the same name exchange, sync and count), so that a C peer speaking it (ofi-provider's test
 * program ofi_bw.c) runs against it in either role. Per size, after the sync, {@code transfers} messages go from
 * client to server in windows of {@code window}, each window allowed by a 4-byte credit the server sends once it has
 * posted the window's receives ({@link #stream}). {@code warmup} transfers run first, unmeasured, when both sides
 * are given the same value. The client prints fi_pingpong's result line with one transfer per message. One thread.
 *
 * @param provider  the provider name.
 * @param domain    the domain name, or null.
 * @param server    the server's address (the client), or null (the server).
 * @param port      the control port.
 * @param sizes     the sizes.
 * @param transfers measured messages per size ({@code -I}, or its default by size).
 * @param window    messages in flight.
 * @param warmup    unmeasured messages before each size.
 * @param timeoutSeconds how long the server waits for its client, and the client for its server ({@code --timeout}).
 */
public record FiBandwidth(String provider, String domain, String server, int port, int[] sizes,
    Iterations transfers,
    int window, int warmup, int timeoutSeconds)
{
    private static final int ACK = 4;

    /**
     * @param out the results.
     * @param err errors.
     * @return 0, or the errno of what failed.
     */
    public int run(final PrintWriter out, final PrintWriter err)
    {
        final boolean client = server != null;
        int largest = ACK;
        for (final int size : sizes)
        {
            largest = Math.max(largest, size);
        }
        try (FiControl control = FiControl.open(server, port, timeoutSeconds * 1000L, err, "bw"))
        {
            final FiControl.Name remote = client ? control.receiveName() : null;
            try (FiEndpoint ep = new FiEndpoint(provider, domain, remote, client ? largest : largest * window, false))
            {
                control.sendName(ep.ep.getname(), ep.info.addrFormat().value());
                ep.insertPeer(client ? remote.name() : control.receiveName().name());
                boolean header = true;
                for (final int size : sizes)
                {
                    if (warmup > 0)
                    {
                        stream(ep, control, client, size, warmup);
                    }
                    final int count = transfers.count(size);
                    final long elapsedUs = stream(ep, control, client, size, count);
                    control.exchangeCount(client, count);
                    if (client)
                    {
                        if (header)
                        {
                            out.println(FiPerfLine.HEADER);
                            header = false;
                        }
                        out.println(FiPerfLine.line(size, count, count, elapsedUs, 1));
                        out.flush();
                    }
                }
                return 0;
            }
        }
        catch (final FabricException ex)
        {
            err.println("bw: " + ex.getMessage());
            return ex.errno();
        }
        catch (final IOException ex)
        {
            err.println("bw: control channel: " + ex);
            return Errno.FI_EIO;
        }
    }

    /**
     * One size's stream. Credits: the server posts the next window's receives and then sends a 4-byte credit; the
     * client waits for the credit, sends the window and waits for its transmit completions; after the last window the
     * server sends one more credit once every message has arrived, which ends the client's clock.
     *
     * @return the client's elapsed microseconds (the server's are not used).
     */
    private long stream(final FiEndpoint ep, final FiControl control, final boolean client, final int size,
        final int count) throws IOException
    {
        if (client)
        {
            ep.postRecv(0, ACK);
        }
        control.sync(client);
        final long start = System.nanoTime();
        for (int done = 0; done < count; )
        {
            final int n = Math.min(window, count - done);
            if (client)
            {
                ep.awaitRx(1);
                ep.postRecv(0, ACK);
                for (int i = 0; i < n; i++)
                {
                    ep.postSend(size);
                }
                ep.awaitTx(n);
            }
            else
            {
                for (int i = 0; i < n; i++)
                {
                    ep.postRecv(i * size, size);
                }
                ep.postSend(ACK);
                ep.awaitTx(1);
                ep.awaitRx(n);
            }
            done += n;
        }
        if (client)
        {
            ep.awaitRx(1);
        }
        else
        {
            ep.postSend(ACK);
            ep.awaitTx(1);
        }
        return Math.max(1, (System.nanoTime() - start) / 1000);
    }
}
