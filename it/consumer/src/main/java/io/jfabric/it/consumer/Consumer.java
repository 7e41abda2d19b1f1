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
package io.jfabric.it.consumer;

import io.jfabric.AddressVector;
import io.jfabric.Addresses;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One message between two JVMs over a named shm domain, written against {@code jfabric-api} only.
 * <pre>
 *   Consumer receiver DOMAIN DIR            posts a receive, publishes its address in DIR/receiver.addr, prints
 *                                           what arrives and writes it to DIR/received
 *   Consumer sender DOMAIN DIR MESSAGE      reads DIR/receiver.addr, sends MESSAGE, waits for DIR/received
 * </pre>
 * Exit 0 on success, 1 on any failure or after {@value #TIMEOUT_MS} ms without progress.
 */
public final class Consumer
{
    private static final long TIMEOUT_MS = 60_000;
    private static final int BUFFER = 4096;
    private static final long RECV_CONTEXT = 1;
    private static final long SEND_CONTEXT = 2;

    private Consumer()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (args.length < 3 || !(args[0].equals("receiver") || args[0].equals("sender")) ||
            (args[0].equals("sender") && args.length != 4))
        {
            System.err.println("usage: Consumer receiver DOMAIN DIR | sender DOMAIN DIR MESSAGE");
            System.exit(2);
        }
        final String role = args[0];
        try
        {
            run(role, args[1], Path.of(args[2]), args.length > 3 ? args[3] : null);
        }
        catch (final Exception | Error ex)
        {
            System.err.println(role + ": FAILED: " + ex);
            ex.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(final String role, final String domainName, final Path dir, final String message)
        throws IOException, InterruptedException
    {
        final Info hints = new Info().caps(Flags.FI_MSG);
        hints.domainAttr().name(domainName);
        final List<Info> infos = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints);
        final Info info = infos.get(0);
        System.out.println(role + ": provider " + info.fabricAttr().provName() + ", " +
            (Consumer.class.getModule().isNamed() ? "module path (" + Consumer.class.getModule().getName() + ")" :
            "class path"));

        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
             Domain domain = fabric.domain(info, 0);
             AddressVector av = domain.avOpen(new AvAttr(), 0);
             CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
             Endpoint ep = domain.endpoint(info, 0))
        {
            System.out.println(role + ": provider module " + describe(fabric.getClass().getModule()));
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            final CqEntries entries = new CqEntries(16);
            final long deadline = System.currentTimeMillis() + TIMEOUT_MS;

            if (role.equals("receiver"))
            {
                final ByteBuffer in = ByteBuffer.allocateDirect(BUFFER);
                check("recv", ep.recv(in, 0, BUFFER, 0, Addresses.FI_ADDR_UNSPEC, RECV_CONTEXT));
                publish(dir.resolve("receiver.addr"), ep.getname());
                final int len = await(cq, entries, RECV_CONTEXT, deadline);
                final byte[] text = new byte[len];
                in.get(0, text);
                final String got = new String(text, StandardCharsets.UTF_8);
                System.out.println("receiver: received \"" + got + "\" (" + len + " bytes)");
                publish(dir.resolve("received"), text);
            }
            else
            {
                final Path addrFile = dir.resolve("receiver.addr");
                waitFor(addrFile, deadline);
                final String peerName = Files.readString(addrFile, StandardCharsets.US_ASCII);
                final long[] peer = new long[1];
                av.insert(new String[] {peerName}, 1, peer, 0, 0);

                final byte[] text = message.getBytes(StandardCharsets.UTF_8);
                final ByteBuffer out = ByteBuffer.allocateDirect(BUFFER);
                out.put(0, text);
                long rc;
                while ((rc = ep.send(out, 0, text.length, 0, peer[0], SEND_CONTEXT)) == -Errno.FI_EAGAIN)
                {
                    progress(cq, entries, deadline);
                }
                check("send", rc);
                await(cq, entries, SEND_CONTEXT, deadline);
                System.out.println("sender: sent \"" + message + "\" to " + peerName);
                // Stay open until the receiver has the message: it is in the receiver's lane already, but a
                // receiver that reads it only after this endpoint closed would judge the sender gone.
                waitFor(dir.resolve("received"), deadline);
            }
        }
    }

    /**
     * How the provider was loaded: "unnamed" on the class path; on the module path its name, whether it is an
     * explicit (module-info) or automatic module, and what it exports.
     */
    private static String describe(final Module module)
    {
        if (!module.isNamed())
        {
            return "unnamed";
        }
        final ModuleDescriptor descriptor = module.getDescriptor();
        return descriptor.name() + (descriptor.isAutomatic() ? " automatic" : " explicit") + ", exports " +
            descriptor.exports().stream()
                .map(e -> e.isQualified() ? e.source() + " to " + String.join("+", e.targets()) : e.source())
                .sorted()
                .collect(Collectors.joining(" "));
    }

    /** Reads the CQ until the completion of {@code context}; returns its length. */
    private static int await(final CompletionQueue cq, final CqEntries entries, final long context, final long deadline)
        throws InterruptedException
    {
        while (true)
        {
            final int n = progress(cq, entries, deadline);
            for (int i = 0; i < n; i++)
            {
                if (entries.opContext[i] == context)
                {
                    return (int)entries.len[i];
                }
            }
        }
    }

    private static int progress(final CompletionQueue cq, final CqEntries entries, final long deadline)
        throws InterruptedException
    {
        final int n = cq.read(entries, 16);
        if (n == -Errno.FI_EAVAIL)
        {
            final CqErrEntry err = new CqErrEntry();
            cq.readErr(err, 0);
            throw new IllegalStateException("completion error: " + Errno.name(err.err));
        }
        if (n > 0)
        {
            return n;
        }
        if (n != -Errno.FI_EAGAIN)
        {
            throw new IllegalStateException("cq read: " + Errno.name(-n));
        }
        if (System.currentTimeMillis() > deadline)
        {
            throw new IllegalStateException("no completion within " + TIMEOUT_MS + " ms");
        }
        Thread.sleep(1);
        return 0;
    }

    private static void check(final String what, final long rc)
    {
        if (rc != 0)
        {
            throw new IllegalStateException(what + ": " + Errno.name((int)-rc));
        }
    }

    /** Writes a file whole, then renames it into place, so a reader never sees half of it. */
    private static void publish(final Path file, final byte[] content) throws IOException
    {
        final Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, content);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void waitFor(final Path file, final long deadline) throws InterruptedException
    {
        while (!Files.exists(file))
        {
            if (System.currentTimeMillis() > deadline)
            {
                throw new IllegalStateException(file + " did not appear within " + TIMEOUT_MS + " ms");
            }
            Thread.sleep(10);
        }
    }
}
