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
package io.jfabric.examples;

import io.jfabric.AddressVector;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the side the others look for (the pubsub publisher, the reqrep server, the rma target) lives, and how each
 * side gets there, on any provider: a node and a service, as {@code fi_getinfo(3)} takes them. Options
 * {@code --provider} ({@code -p}), {@code --node} and {@code --service}; the same program runs on one host over
 * {@code shm} and across hosts over {@code tcp} by changing {@code -p} (and, across hosts, {@code --node}).
 * <ul>
 * <li><b>A native provider</b> ({@code tcp}, {@code verbs}, ...: the ofi provider, JDK 22+), as libfabric's own
 * {@code fi_pingpong} does it: the serving side asks getinfo for {@code node:service} with {@code FI_SOURCE}, so the
 * info's {@code src_addr} is that address and its endpoint listens there; the other side asks getinfo for the same
 * node and service without {@code FI_SOURCE} (getinfo then picks the local interface that reaches it, and names the
 * server in {@code dest_addr}) and inserts the address with {@code fi_av_insertsvc}. The node defaults to
 * {@code 127.0.0.1}, so nothing listens beyond this host unless told to; the service (the TCP port) to the
 * example's own.</li>
 * <li><b>jfabric's {@code shm}</b> binds no address from getinfo: the serving side takes an endpoint slot of the
 * named domain with {@code fi_setname} ({@code fi_shm://localhost:<service>/<domain>}, much as a server binds a
 * well-known port), the service defaulting to the domain's last slot, which ordinary endpoints (they take the lowest
 * free one) leave alone unless the domain is full. The other side inserts that address with
 * {@code fi_av_insertsvc} as above. It has no {@code ?gen=} qualifier, so it means "whichever endpoint holds that slot
 * now": a restarted server is reached with no change on the other side.</li>
 * </ul>
 * Immutable; any thread.
 */
public final class WellKnownAddress
{
    /** jfabric's own shared-memory provider: the default. */
    public static final String SHM = "shm";
    /** Where a native provider's server listens unless told otherwise: this host only. */
    public static final String LOOPBACK = "127.0.0.1";

    private static final String SHM_NODE = "localhost";

    private final String provider;
    private final String node;
    private final String service;

    private WellKnownAddress(final String provider, final String node, final String service)
    {
        this.provider = provider;
        this.node = node;
        this.service = service;
    }

    /**
     * Add this class's options to an example's.
     *
     * @param exampleOptions the example's own options and their defaults.
     * @return them, with {@code provider} (default {@value #SHM}), {@code node} and {@code service} (defaults empty:
     *         chosen by {@link #of}) after them.
     */
    public static Map<String, String> withOptions(final Map<String, String> exampleOptions)
    {
        final Map<String, String> all = new LinkedHashMap<>(exampleOptions);
        all.put("provider", SHM);
        all.put("node", "");
        all.put("service", "");
        return all;
    }

    /**
     * @param options     the parsed command line ({@link #withOptions}).
     * @param defaultPort the service a native provider's server listens on unless {@code --service} says otherwise.
     * @return the address the options name.
     */
    public static WellKnownAddress of(final ExampleArgs options, final int defaultPort)
    {
        final String provider = options.string("provider");
        final boolean shm = SHM.equals(provider);
        final String node = options.string("node");
        final String service = options.string("service");
        return new WellKnownAddress(provider, node.isEmpty() ? (shm ? SHM_NODE : LOOPBACK) : node,
            service.isEmpty() ? (shm ? null : Integer.toString(defaultPort)) : service);
    }

    /** @return the provider's name, as getinfo's hints take it ({@code shm}, {@code tcp}, ...). */
    public String provider()
    {
        return provider;
    }

    /** @return whether it is jfabric's shm provider, whose named domains are files of this host. */
    public boolean isShm()
    {
        return SHM.equals(provider);
    }

    /**
     * Finish an example's hints for this provider: its name, and for shm the named domain (a region file every
     * process naming it maps) and FI_LOCAL_COMM (peers on this host only, all shm offers). A native provider's
     * domain is the network interface getinfo picks for the node.
     *
     * @param hints  the example's hints.
     * @param domain the shm domain's name.
     * @return the hints.
     */
    public Info hints(final Info hints, final String domain)
    {
        hints.fabricAttr().provName(provider);
        if (isShm())
        {
            hints.caps(hints.caps() | Flags.FI_LOCAL_COMM);
            hints.domainAttr().name(domain);
        }
        return hints;
    }

    /**
     * fi_getinfo for the serving side: with FI_SOURCE, so that a native provider's endpoint listens at the node and
     * service.
     *
     * @param hints the hints ({@link #hints}).
     * @return the best match.
     * @throws FabricException FI_ENODATA with the reason when nothing matches.
     */
    public Info serverInfo(final Info hints)
    {
        return isShm() ? Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0) :
            Fabrics.getInfo(Versions.FI_CURRENT_VERSION, node, service, Flags.FI_SOURCE, hints).get(0);
    }

    /**
     * fi_getinfo for the side that looks for the server: node and service name the destination, so a native
     * provider picks the local interface that reaches it.
     *
     * @param hints the hints ({@link #hints}).
     * @return the best match.
     * @throws FabricException FI_ENODATA with the reason when nothing matches.
     */
    public Info clientInfo(final Info hints)
    {
        return isShm() ? Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0) :
            Fabrics.getInfo(Versions.FI_CURRENT_VERSION, node, service, 0, hints).get(0);
    }

    /**
     * The serving endpoint takes the address, before it is enabled: on shm with {@code fi_setname}
     * ({@link Errno#FI_EADDRINUSE} when another endpoint holds it); a native endpoint already listens at the
     * {@code src_addr} of {@link #serverInfo}.
     *
     * @param ep   the serving endpoint, not enabled yet.
     * @param info the info it was opened with.
     */
    public void take(final Endpoint ep, final Info info)
    {
        if (isShm())
        {
            ep.setname(text(info).getBytes(StandardCharsets.US_ASCII));
        }
    }

    /**
     * {@code fi_av_insertsvc}: the other side puts the server's address into its AV.
     *
     * @param av   the AV its endpoint is bound to.
     * @param info the info of {@link #clientInfo}.
     * @return the server's fi_addr.
     * @throws FabricException when the AV refuses the address.
     */
    public long insert(final AddressVector av, final Info info)
    {
        final long[] fiAddr = new long[1];
        final int[] status = new int[1];
        if (av.insertsvc(node, service(info), fiAddr, Flags.FI_SYNC_ERR, 0, status) != 1)
        {
            throw new FabricException(status[0] != 0 ? status[0] : Errno.FI_EINVAL, "fi_av_insertsvc(" + node +
                ", " + service(info) + ") was refused: " + Errno.strerror(status[0]));
        }
        return fiAddr[0];
    }

    /**
     * @param info an info of the domain (shm: its ep_cnt gives the default slot).
     * @return the address as the examples print it: {@code fi_shm://localhost:15/pubsub}, {@code 127.0.0.1:9230}.
     */
    public String text(final Info info)
    {
        return isShm() ? "fi_shm://" + node + ":" + service(info) + "/" + info.domainAttr().name() :
            node + ":" + service;
    }

    private String service(final Info info)
    {
        return service != null ? service : Long.toString(info.domainAttr().epCnt() - 1);
    }
}
