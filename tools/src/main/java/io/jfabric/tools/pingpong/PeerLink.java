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
package io.jfabric.tools.pingpong;

import io.jfabric.shm.region.RegionFile;

import java.nio.file.Path;

/**
 * How one side of a pingpong or bw reaches the other and lets go at the end: the endpoint opened
 * ({@link PingpongEndpoint}) with its first receive posted, the addresses exchanged through the {@link Rendezvous},
 * the peer inserted; at the end the client keeps progressing until the server has gone ({@link #awaitServerExit}),
 * and {@link #close()} closes the endpoint.
 * <p>
 * Every file this side creates is handed to the {@link ExitCleanup} as soon as it exists, so it goes however the
 * run ends: the rendezvous file, the shareable-memory segments, and the domain's region file when this side created
 * it. The client, which finishes last (it waits for the server to exit after its fin), also hands over the region
 * whoever created it. With {@link PingpongOptions#keep()} the region stays. The run's thread.
 */
final class PeerLink implements AutoCloseable
{
    private final PingpongOptions options;
    private final ExitCleanup cleanup;
    private final Path regionFile;
    private final Rendezvous rendezvous;
    private PingpongEndpoint endpoint;
    private String peerAddress;

    private PeerLink(final PingpongProvider provider, final PingpongOptions options, final ExitCleanup cleanup)
    {
        this.options = options;
        this.cleanup = cleanup;
        this.regionFile = RegionFile.regionPath(provider.rootDir(), options.domain());
        this.rendezvous = new Rendezvous(provider.rootDir(), options.domain(), options.tool());
    }

    /**
     * Open this side's endpoint and meet the peer.
     *
     * @param provider what fi_getinfo found, and its root directory.
     * @param options  the run's settings.
     * @param role     this side.
     * @param cleanup  what removes this side's files at the end.
     * @return the link, its endpoint's first receive (receive slot 0) posted and the peer inserted.
     * @throws PingpongException when the peer does not show up, or posting the receive fails.
     */
    static PeerLink connect(
        final PingpongProvider provider, final PingpongOptions options, final Role role, final ExitCleanup cleanup)
    {
        final PeerLink link = new PeerLink(provider, options, cleanup);
        link.endpoint = PingpongEndpoint.open(provider.info(), options, link::created);
        try
        {
            if (role == Role.CLIENT && !options.keep())
            {
                cleanup.delete(link.regionFile);
            }
            new ControlChannel(link.endpoint, options, role)
                .check(link.endpoint.postRecv(), "posting the first receive");
            link.rendezvous.publish(role, link.endpoint.address());
            cleanup.delete(link.rendezvous.file(role));
            link.peerAddress = link.rendezvous.await(role.peer(), options.timeoutSeconds());
            link.endpoint.insertPeer(link.peerAddress);
            return link;
        }
        catch (final RuntimeException ex)
        {
            link.close();
            throw ex;
        }
    }

    /** @return this side's endpoint. */
    PingpongEndpoint endpoint()
    {
        return endpoint;
    }

    /** @return the peer's endpoint address (its fi_getname text), as it published it. */
    String peerAddress()
    {
        return peerAddress;
    }

    /** A file the endpoint created: the region stays with {@code --keep}; everything else goes. */
    private void created(final Path file)
    {
        if (!options.keep() || !file.equals(regionFile))
        {
            cleanup.delete(file);
        }
    }

    /**
     * The client, after its fin: keep progressing (the fin may still sit in the provider's queue under manual
     * progress) until the server has withdrawn its address or exited, at most the timeout; the files are checked
     * every millisecond.
     *
     * @param control the run's control messages, for a failure.
     */
    void awaitServerExit(final ControlChannel control)
    {
        final long deadline = System.nanoTime() + options.timeoutSeconds() * 1_000_000_000L;
        long nextCheck = 0;
        while (true)
        {
            control.check(endpoint.progress(), "progressing the fin");
            final long now = System.nanoTime();
            if (now - nextCheck >= 0)
            {
                if (rendezvous.finished(Role.SERVER) || now - deadline > 0)
                {
                    return;
                }
                nextCheck = now + 1_000_000L;
            }
            Thread.onSpinWait();
        }
    }

    @Override
    public void close()
    {
        if (endpoint != null)
        {
            endpoint.close();
            endpoint = null;
        }
    }
}
