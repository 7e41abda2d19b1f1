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
package io.jfabric.examples.rma;

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
import io.jfabric.FabricException;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.MemoryRegion;
import io.jfabric.MrIov;
import io.jfabric.ShareableMemory;
import io.jfabric.examples.ExampleArgs;
import io.jfabric.examples.ShutdownSignal;
import io.jfabric.examples.WellKnownAddress;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The target of one-sided operations: registers {@link Rma#MEMORY_LENGTH} bytes of shareable memory under key
 * {@link Rma#KEY} with FI_REMOTE_READ and FI_REMOTE_WRITE, at its well-known address, then waits until
 * {@code --initiators} initiators have said they are done and checks what they left: the counter holds one add per
 * initiator, the block the last one's bytes. It posts one receive at a time and reads its CQ only for their "done":
 * on shm the writes, reads and atomics themselves are the initiators' own copies into its memory; on tcp (manual
 * progress) the provider serves them inside those same CQ reads, with no code of the target's.
 * <p>
 * {@code target [-p PROVIDER] [--node NODE] [--service SERVICE] [--domain NAME] [--initiators N]}; exit 0 when the
 * memory holds what it should, 5 (FI_EIO) when not, a libfabric errno when a call fails. Runs on the main thread.
 */
public final class Target
{
    private static final String USAGE = "target [-p shm|tcp|... (provider)] [--node NODE] [--service SERVICE] " +
        "[--domain NAME (shm)] [--initiators N]";

    private Target()
    {
    }

    /**
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args));
    }

    /**
     * @param args the command line.
     * @return the exit status.
     */
    static int run(final String... args)
    {
        final Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put("domain", Rma.DEFAULT_DOMAIN);
        defaults.put("initiators", "1");
        final ExampleArgs options;
        try
        {
            options = ExampleArgs.parse(USAGE, WellKnownAddress.withOptions(defaults), args);
            options.number("initiators");
        }
        catch (final ExampleArgs.UsageException ex)
        {
            System.err.println(ex.getMessage());
            return 1;
        }
        final ShutdownSignal signal = ShutdownSignal.register();
        try
        {
            return serve(WellKnownAddress.of(options, Rma.DEFAULT_PORT), options.string("domain"),
                options.number("initiators"), signal);
        }
        catch (final FabricException ex)
        {
            // Control calls (getinfo, open, register, bind, enable) throw; ex.errno() is libfabric's number.
            System.err.println("target: " + ex.getMessage());
            return ex.errno() > 0 && ex.errno() < 256 ? ex.errno() : 2;
        }
        finally
        {
            signal.closed();
        }
    }

    private static int serve(
        final WellKnownAddress address, final String domainName, final long initiators, final ShutdownSignal signal)
    {
        final Info info = address.serverInfo(Rma.hints(address, domainName));
        final String wellKnown = address.text(info);

        // Memory peers may reach, registered under our key. On shm allocShareable is a file of the domain, so peers'
        // reads, writes and atomics are copies and CPU atomics of their own into it; a native provider's is native
        // memory the NIC (tcp: the provider) reads and writes.
        try (Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
            Domain domain = fabric.domain(info, 0);
            AddressVector av = domain.avOpen(new AvAttr(), 0);
            CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
            Endpoint ep = domain.endpoint(info, 0);
            ShareableMemory memory = domain.allocShareable(Rma.MEMORY_LENGTH);
            MemoryRegion mr = domain.mrRegv(new MrIov[] {MrIov.of(memory, 0, Rma.MEMORY_LENGTH)},
                Flags.FI_REMOTE_READ | Flags.FI_REMOTE_WRITE, 0, Rma.KEY, 0, 0))
        {
            address.take(ep, info); // shm: FI_EADDRINUSE when another target is there
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            System.out.println("target: at " + av.straddr(ep.getname()) + " (well-known address " + wellKnown +
                "), " + Rma.MEMORY_LENGTH + " bytes under key " + mr.key() + "; waiting for " + initiators +
                " initiator(s)");

            final int done = awaitInitiators(ep, cq, initiators, signal);
            if (done < initiators)
            {
                System.out.println("target: stopped after " + done + " of " + initiators + " initiator(s)");
                return signal.running() ? Errno.FI_EIO : 0;
            }
            return check(memory.buffer().order(ByteOrder.LITTLE_ENDIAN), initiators);
        }
    }

    /** Receives the initiators' "done" one at a time; returns how many arrived. */
    private static int awaitInitiators(
        final Endpoint ep, final CompletionQueue cq, final long initiators, final ShutdownSignal signal)
    {
        final ByteBuffer rx = ByteBuffer.allocateDirect(64);
        final CqEntries entries = new CqEntries(1);
        int done = 0;
        while (done < initiators && signal.running())
        {
            final long rc = ep.recv(rx, 0, rx.capacity(), 0, Addresses.FI_ADDR_UNSPEC, done);
            if (rc != 0)
            {
                throw new FabricException((int)-rc, "posting a receive");
            }
            int n;
            while ((n = cq.read(entries, 1)) == -Errno.FI_EAGAIN && signal.running())
            {
                // Reading the CQ is also what progresses the receive (manual progress) and, on tcp, the
                // initiators' operations on our memory.
                Thread.onSpinWait();
            }
            if (n == -Errno.FI_EAVAIL)
            {
                final CqErrEntry err = new CqErrEntry();
                cq.readErr(err, 0);
                throw new FabricException(err.err, "a receive completed in error");
            }
            if (n == 1)
            {
                final byte[] text = new byte[(int)entries.len[0]];
                rx.get(0, text);
                System.out.println("target: initiator " + (done + 1) + " says " +
                    new String(text, StandardCharsets.US_ASCII));
                done++;
            }
        }
        return done;
    }

    /** The counter must hold one add per initiator and the block the last initiator's bytes. */
    private static int check(final ByteBuffer memory, final long initiators)
    {
        final long counter = memory.getLong((int)Rma.COUNTER_OFFSET);
        int wrong = 0;
        for (int i = 0; i < Rma.BLOCK_LENGTH; i++)
        {
            if (memory.get((int)Rma.BLOCK_OFFSET + i) != Rma.blockByte(initiators - 1, i))
            {
                wrong++;
            }
        }
        System.out.println("target: counter " + counter + " (expected " + initiators + "), block: " +
            (wrong == 0 ? "the last initiator's " + Rma.BLOCK_LENGTH + " bytes" : wrong + " bytes wrong"));
        return counter == initiators && wrong == 0 ? 0 : Errno.FI_EIO;
    }
}
