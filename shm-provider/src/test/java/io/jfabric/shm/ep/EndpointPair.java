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
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Progress;
import io.jfabric.Threading;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;

import java.nio.charset.StandardCharsets;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two enabled endpoints {@link #a} and {@link #b} of one domain in this process, each with its own completion queue
 * (format TAGGED) and both in one AV ({@link #addrA}, {@link #addrB}): the fixture of the single-process data path
 * tests. Test thread only; close it after the test.
 */
public final class EndpointPair implements AutoCloseable
{
    public final ShmTestRoot root;
    public final Fabric fabric;
    public final Domain domain;
    public final AddressVector av;
    public final CompletionQueue cqA;
    public final CompletionQueue cqB;
    public final Endpoint a;
    public final Endpoint b;
    public final long addrA;
    public final long addrB;

    /**
     * @param progress  data progress of the domain.
     * @param threading threading model of the domain.
     * @param cqAttr    attributes of both CQs.
     * @param settings  provider settings (null for a setting's default).
     */
    public EndpointPair(
        final Progress progress, final Threading threading, final CqAttr cqAttr, final UnaryOperator<String> settings)
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider(settings);
        final Info hints = new Info();
        hints.domainAttr().name("pair").dataProgress(progress).threading(threading);
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        fabric = provider.fabric(info.fabricAttr(), 0);
        domain = fabric.domain(info, 0);
        av = domain.avOpen(new AvAttr(), 0);
        cqA = domain.cqOpen(cqAttr, 0);
        cqB = domain.cqOpen(cqAttr, 0);
        a = open(info, cqA);
        b = open(info, cqB);
        final long[] out = new long[2];
        av.insert(new String[] { new String(a.getname(), StandardCharsets.US_ASCII),
            new String(b.getname(), StandardCharsets.US_ASCII) }, 2, out, 0, 0);
        addrA = out[0];
        addrB = out[1];
    }

    /** Manual progress, FI_THREAD_DOMAIN, TAGGED CQs, default settings. */
    public EndpointPair()
    {
        this(Progress.MANUAL, Threading.DOMAIN, new CqAttr().format(CqFormat.TAGGED), key -> null);
    }

    private Endpoint open(final Info info, final CompletionQueue cq)
    {
        final Endpoint ep = domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        return ep;
    }

    /**
     * Read one entry, waiting up to 10 s.
     *
     * @param cq      the queue.
     * @param entries receives it.
     * @return what the last read returned: 1, or a negated errno other than FI_EAGAIN.
     */
    public static int readOne(final CompletionQueue cq, final CqEntries entries)
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        int n;
        while ((n = cq.read(entries, 1)) == -Errno.FI_EAGAIN)
        {
            assertTrue(System.nanoTime() < deadline, "no completion within 10 s");
            Thread.onSpinWait();
        }
        return n;
    }

    @Override
    public void close()
    {
        try
        {
            b.close();
            a.close();
            cqA.close();
            cqB.close();
            av.close();
            domain.close();
            fabric.close();
        }
        finally
        {
            root.close();
        }
    }
}
