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

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.Counter;
import io.jfabric.CqAttr;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A target JVM ({@link EmulatedPeerMain}: heap, direct and shareable memory registered for remote access, its progress
 * running) and, in this JVM, a domain of the same name with one endpoint (FI_MSG, FI_RMA, FI_ATOMIC; a DATA CQ and
 * FI_READ / FI_WRITE counters bound) whose AV holds the target: the set-up of the RMA tests against a second JVM.
 * Test thread only.
 */
final class EmulatedTargetSession implements AutoCloseable
{
    final ShmTestRoot root = new ShmTestRoot();
    final Info info;
    final Fabric fabric;
    final Domain domain;
    final ChildJvm target;
    /** The target's hello: addr, addr2, base, dbase, abase, sbase, length. */
    final Map<String, String> hello;
    final AddressVector av;
    final CompletionQueue cq;
    final Counter reads;
    final Counter writes;
    final Endpoint ep;
    /** The target's first endpoint, as an fi_addr of {@link #av}. */
    final long peer;

    /**
     * @param domainName the domain.
     * @param size       bytes of the target's heap region.
     * @throws Exception when the target does not start.
     */
    EmulatedTargetSession(final String domainName, final int size) throws Exception
    {
        final ShmProvider provider = root.provider();
        final Info hints = new Info();
        hints.domainAttr().name(domainName);
        hints.caps(Flags.FI_MSG | Flags.FI_TAGGED | Flags.FI_RMA | Flags.FI_ATOMIC);
        info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        fabric = provider.fabric(info.fabricAttr(), 0);
        domain = fabric.domain(info, 0);
        target = ChildJvm.start(EmulatedPeerMain.class, List.of("jfabric.shm.dir=" + root.dir()), domainName,
            Integer.toString(size), "running");
        hello = target.awaitResult(60);
        av = domain.avOpen(new AvAttr(), 0);
        cq = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
        reads = domain.cntrOpen(null, 0);
        writes = domain.cntrOpen(null, 0);
        ep = domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.bind(reads, Flags.FI_READ);
        ep.bind(writes, Flags.FI_WRITE);
        ep.enable();
        final long[] out = new long[1];
        assertEquals(1, av.insert(new String[] {hello.get("addr")}, 1, out, 0, 0));
        peer = out[0];
    }

    /** @return the address of the target's region named by {@code key} of its hello (base, dbase, sbase...). */
    long address(final String key)
    {
        return Long.parseLong(hello.get(key));
    }

    /** @return the target's answer to one command line. */
    Map<String, String> ask(final String command) throws Exception
    {
        target.tell(command);
        return target.awaitResult(60);
    }

    @Override
    public void close() throws Exception
    {
        try
        {
            target.tell("exit");
            target.awaitSuccess(60);
        }
        finally
        {
            for (final AutoCloseable c : new AutoCloseable[] {ep, reads, writes, cq, av})
            {
                c.close();
            }
            TwoJvmEndpointTestBase.closeDomain(domain, fabric, root);
        }
    }
}
