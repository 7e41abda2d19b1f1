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
import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicMsg;
import io.jfabric.AtomicOp;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Ioc;
import io.jfabric.Msg;
import io.jfabric.RmaIov;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 27: every *msg call form with the FI_INJECT operation flag. fi_msg(3), fi_rma(3) and fi_atomic(3) give
 * FI_INJECT one meaning (the constant buffers are the caller's again when the call returns, at most inject_size of
 * them); only the inject calls (fi_inject, fi_inject_write, fi_inject_atomic...) never complete. So sendmsg,
 * tsendmsg, writemsg, readmsg, atomicmsg, fetch_atomicmsg and compare_atomicmsg with FI_INJECT | FI_COMPLETION
 * each write one completion, on an endpoint bound with FI_SELECTIVE_COMPLETION and on one without; with FI_INJECT
 * alone under selective completion, none. The target is a second JVM ({@link EmulatedPeerMain}), every RMA and
 * atomic form against its shareable region (one-sided) and its heap region (emulated).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InjectMsgCompletionTest
{
    private static final String DOMAIN = "injectmsg";
    private static final long HEAP_KEY = 7;
    private static final long SHARED_KEY = 11;

    private EmulatedTargetSession session;
    private Domain domain;
    private Info info;
    private AddressVector av;
    private String targetAddress;
    private long heapBase;
    private long sharedBase;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    void start() throws Exception
    {
        session = new EmulatedTargetSession(DOMAIN, 65536);
        domain = session.domain;
        info = session.info;
        av = session.av;
        targetAddress = session.hello.get("addr");
        heapBase = session.address("base");
        sharedBase = session.address("sbase");
    }

    @AfterAll
    void stop() throws Exception
    {
        try
        {
            for (int i = opened.size() - 1; i >= 0; i--)
            {
                opened.get(i).close();
            }
        }
        finally
        {
            session.close();
        }
    }

    /** An endpoint whose transmit CQ is bound with {@code bindFlags}; @return its CQ (the endpoint is at 1). */
    private Object[] endpoint(final long bindFlags)
    {
        final CompletionQueue cq = domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0);
        final Endpoint ep = domain.endpoint(info, 0);
        opened.add(cq);
        opened.add(ep);
        ep.bind(av, 0);
        ep.bind(cq, bindFlags);
        ep.enable();
        return new Object[] {cq, ep};
    }

    @Test
    void shouldCompleteEveryMsgFormWithInjectAndCompletion()
    {
        final long peer = insert();
        for (final long bind : new long[] {Flags.FI_TRANSMIT | Flags.FI_RECV,
            Flags.FI_TRANSMIT | Flags.FI_RECV | Flags.FI_SELECTIVE_COMPLETION})
        {
            final Object[] pair = endpoint(bind);
            final CompletionQueue cq = (CompletionQueue)pair[0];
            final Endpoint ep = (Endpoint)pair[1];
            for (final Form form : forms(ep, peer))
            {
                assertEquals(0, form.call.getAsLong(), form.name + " returned");
                assertEquals(form.flags, awaitFlags(cq), form.name + " with FI_INJECT | FI_COMPLETION, bind 0x" +
                    Long.toHexString(bind));
            }
        }
    }

    @Test
    void shouldNotCompleteAMsgFormWithInjectAloneUnderSelectiveCompletion()
    {
        final long peer = insert();
        final Object[] pair = endpoint(Flags.FI_TRANSMIT | Flags.FI_RECV | Flags.FI_SELECTIVE_COMPLETION);
        final CompletionQueue cq = (CompletionQueue)pair[0];
        final Endpoint ep = (Endpoint)pair[1];
        completion = Flags.FI_INJECT;
        try
        {
            for (final Form form : forms(ep, peer))
            {
                assertEquals(0, form.call.getAsLong(), form.name + " returned");
            }
            assertEquals(0, ReadOnlyInitiatorMain.drain(cq, 500), "no completion without FI_COMPLETION");
        }
        finally
        {
            completion = Flags.FI_INJECT | Flags.FI_COMPLETION;
        }
    }

    private long completion = Flags.FI_INJECT | Flags.FI_COMPLETION;

    private long insert()
    {
        final long[] out = new long[1];
        assertEquals(1, av.insert(new String[] {targetAddress}, 1, out, 0, 0));
        return out[0];
    }

    private record Form(String name, long flags, LongSupplier call)
    {
    }

    private List<Form> forms(final Endpoint ep, final long peer)
    {
        final ByteBuffer data = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        final ByteBuffer results = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        data.putLong(0, 1);
        final List<Form> forms = new ArrayList<>();
        final Msg msg = new Msg(1).set(data, 0, 16, 0);
        msg.addr = peer;
        forms.add(new Form("sendmsg", Flags.FI_SEND | Flags.FI_MSG, () -> ep.sendmsg(msg, completion)));
        forms.add(new Form("tsendmsg", Flags.FI_SEND | Flags.FI_TAGGED, () -> ep.tsendmsg(msg, completion)));
        for (final long[] region : new long[][] {{SHARED_KEY, sharedBase}, {HEAP_KEY, heapBase}})
        {
            final String where = region[0] == SHARED_KEY ? " (one-sided)" : " (emulated)";
            final RmaIov rma = new RmaIov(1).set(region[1], 16, region[0]);
            forms.add(new Form("writemsg" + where, Flags.FI_RMA | Flags.FI_WRITE,
                () -> ep.writemsg(msg, rma, completion)));
            final Msg into = new Msg(1).set(results, 0, 16, 0);
            into.addr = peer;
            forms.add(new Form("readmsg" + where, Flags.FI_RMA | Flags.FI_READ,
                () -> ep.readmsg(into, rma, completion)));
            final AtomicMsg atomic = new AtomicMsg(1, 1);
            atomic.msgIov.set(data, 0, 1, 0);
            atomic.rmaIov.set(region[1], 1, region[0]);
            atomic.addr = peer;
            atomic.datatype = AtomicDatatype.UINT64;
            atomic.op = AtomicOp.SUM;
            forms.add(new Form("atomicmsg" + where, Flags.FI_ATOMIC | Flags.FI_WRITE,
                () -> ep.atomicmsg(atomic, completion)));
            final Ioc result = new Ioc(1).set(results, 0, 1, 0);
            forms.add(new Form("fetch_atomicmsg" + where, Flags.FI_ATOMIC | Flags.FI_READ,
                () -> ep.fetchAtomicmsg(atomic, result, completion)));
            final AtomicMsg cswap = new AtomicMsg(1, 1);
            cswap.msgIov.set(data, 0, 1, 0);
            cswap.rmaIov.set(region[1], 1, region[0]);
            cswap.addr = peer;
            cswap.datatype = AtomicDatatype.UINT64;
            cswap.op = AtomicOp.CSWAP;
            final Ioc compare = new Ioc(1).set(data, 8, 1, 0);
            forms.add(new Form("compare_atomicmsg" + where, Flags.FI_ATOMIC | Flags.FI_READ,
                () -> ep.compareAtomicmsg(cswap, compare, result, completion)));
        }
        return forms;
    }

    /** @return the next completion's flags, or the negated errno of an error entry; fails after 10 s. */
    private static long awaitFlags(final CompletionQueue cq)
    {
        final long flags = CqWait.next(cq);
        final CqEntries none = new CqEntries(1);
        assertEquals(-Errno.FI_EAGAIN, cq.read(none, 1), "exactly one completion");
        return flags;
    }
}
