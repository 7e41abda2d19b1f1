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
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Progress;
import io.jfabric.Threading;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Each threading model of fi_domain(3) driven the way it lets an application drive it, with real threads over one
 * real domain region: every message arrives whole, once and in order, and every send completes once.
 * <ul>
 *   <li>SAFE, FID, ENDPOINT: one thread sends on an endpoint while another reads that endpoint's CQ (the CQ read
 *   progresses the endpoint's queued sends), at an inline size, a segmented size, 1 MiB, and a rendezvous size;
 *   with manual and automatic progress;</li>
 *   <li>FID, ENDPOINT: receives posted on one thread, the receiver's CQ read on another;</li>
 *   <li>COMPLETION: two threads, each driving its own endpoint and CQ, sending into one receiver;</li>
 *   <li>DOMAIN: two domains, one thread each;</li>
 *   <li>SAFE: two threads sending on one endpoint at once.</li>
 * </ul>
 */
class ThreadingModelTest
{
    private final List<AutoCloseable> opened = new ArrayList<>();
    private ShmTestRoot root;
    private ExecutorService threads;

    @BeforeEach
    void start()
    {
        root = new ShmTestRoot();
        threads = Executors.newCachedThreadPool();
    }

    @AfterEach
    void stop() throws Exception
    {
        threads.shutdownNow(); // a failed test's other threads stop before what they use is closed
        threads.awaitTermination(10, TimeUnit.SECONDS);
        for (int i = opened.size() - 1; i >= 0; i--)
        {
            opened.get(i).close();
        }
        root.close();
    }

    static Stream<Arguments> sendWhileAnotherThreadReadsTheCq()
    {
        final List<Arguments> cases = new ArrayList<>();
        for (final Threading model : new Threading[] { Threading.SAFE, Threading.FID, Threading.ENDPOINT })
        {
            for (final Progress progress : new Progress[] { Progress.MANUAL, Progress.AUTO })
            {
                cases.add(Arguments.of(model, progress, 3_000, 2_000, false));
                cases.add(Arguments.of(model, progress, 20_000, 2_000, false));
                cases.add(Arguments.of(model, progress, 1 << 20, 100, false));
                cases.add(Arguments.of(model, progress, 20_000, 2_000, true));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2} B x {3}, shareable source {4}")
    @MethodSource
    void sendWhileAnotherThreadReadsTheCq(
        final Threading model, final Progress progress, final int size, final int count, final boolean shareable)
        throws Exception
    {
        final Node node = new Node("d", model, progress);
        final Ep a = node.endpoint();
        final Ep b = node.endpoint();
        final MessageStream s = track(new MessageStream(0, node.domain, a.ep, b.ep, node.insert(b), size, count,
            shareable));
        final Future<?> sender = threads.submit(s::sendAll);
        final Future<?> reaper = threads.submit(() -> reapSends(a, s));
        MessageStream.until(s::allReceived, () -> s.tryPost() | MessageStream.reapReceives(b.cq, s) > 0, s::toString);
        join(sender, reaper);
    }

    @ParameterizedTest
    @EnumSource(value = Threading.class, names = { "SAFE", "FID", "ENDPOINT" })
    void postReceivesOnOneThreadAndReadTheirCqOnAnother(final Threading model) throws Exception
    {
        final Node node = new Node("d", model, Progress.MANUAL);
        final Ep a = node.endpoint();
        final Ep b = node.endpoint();
        final MessageStream s = track(new MessageStream(0, node.domain, a.ep, b.ep, node.insert(b), 20_000, 2_000,
            false));
        final Future<?> sender = threads.submit(s::sendAll);
        final Future<?> sendReaper = threads.submit(() -> reapSends(a, s));
        final Future<?> poster = threads.submit(s::postAll);
        MessageStream.until(s::allReceived, () -> MessageStream.reapReceives(b.cq, s) > 0, s::toString);
        join(sender, sendReaper, poster);
    }

    @ParameterizedTest
    @EnumSource(value = Threading.class, names = { "SAFE", "FID", "ENDPOINT", "COMPLETION" })
    void twoThreadsEachDrivingTheirOwnEndpointAndCqIntoOneReceiver(final Threading model) throws Exception
    {
        final Node node = new Node("d", model, Progress.MANUAL);
        final Ep first = node.endpoint();
        final Ep second = node.endpoint();
        final Ep receiver = node.endpoint();
        final long dest = node.insert(receiver);
        final MessageStream one = track(new MessageStream(0, node.domain, first.ep, receiver.ep, dest, 20_000, 1_000,
            false));
        final MessageStream two = track(new MessageStream(1, node.domain, second.ep, receiver.ep, dest, 20_000,
            1_000, false));
        final Future<?> f1 = threads.submit(() -> driveSender(first, one));
        final Future<?> f2 = threads.submit(() -> driveSender(second, two));
        MessageStream.until(() -> one.allReceived() && two.allReceived(),
            () -> one.tryPost() | two.tryPost() | MessageStream.reapReceives(receiver.cq, one, two) > 0,
            () -> one + "; " + two);
        join(f1, f2);
    }

    @ParameterizedTest
    @EnumSource(value = Threading.class, names = { "DOMAIN", "COMPLETION", "ENDPOINT", "FID", "SAFE" })
    void oneThreadPerDomain(final Threading model) throws Exception
    {
        final Future<?>[] runs = new Future<?>[2];
        for (int d = 0; d < 2; d++)
        {
            final Node node = new Node("d" + d, model, Progress.MANUAL);
            final Ep a = node.endpoint();
            final Ep b = node.endpoint();
            final MessageStream s = track(new MessageStream(0, node.domain, a.ep, b.ep, node.insert(b), 20_000,
                2_000, false));
            runs[d] = threads.submit(() -> MessageStream.until(() -> s.allReceived() && s.allSendsCompleted(),
                () -> s.trySend() | MessageStream.reapSends(a.cq, s) > 0 | s.tryPost() |
                    MessageStream.reapReceives(b.cq, s) > 0, s::toString));
        }
        join(runs);
    }

    @ParameterizedTest
    @EnumSource(value = Progress.class, names = { "MANUAL", "AUTO" })
    void twoThreadsSendAndTwoThreadsPostOnOneSafeEndpointPair(final Progress progress) throws Exception
    {
        final Node node = new Node("d", Threading.SAFE, progress);
        final Ep a = node.endpoint();
        final Ep b = node.endpoint();
        final long dest = node.insert(b);
        final MessageStream one = track(new MessageStream(0, node.domain, a.ep, b.ep, dest, 20_000, 1_000, false));
        final MessageStream two = track(new MessageStream(1, node.domain, a.ep, b.ep, dest, 20_000, 1_000, false));
        final Future<?> s1 = threads.submit(one::sendAll);
        final Future<?> s2 = threads.submit(two::sendAll);
        final Future<?> p1 = threads.submit(one::postAll);
        final Future<?> p2 = threads.submit(two::postAll);
        final Future<?> reaper = threads.submit(() -> MessageStream.until(
            () -> one.allSendsCompleted() && two.allSendsCompleted(),
            () -> MessageStream.reapSends(a.cq, one, two) > 0, () -> one + "; " + two));
        MessageStream.until(() -> one.allReceived() && two.allReceived(),
            () -> MessageStream.reapReceives(b.cq, one, two) > 0, () -> one + "; " + two);
        join(s1, s2, p1, p2, reaper);
    }

    private static void reapSends(final Ep sender, final MessageStream s)
    {
        MessageStream.until(s::allSendsCompleted, () -> MessageStream.reapSends(sender.cq, s) > 0, s::toString);
    }

    /** The thread of one endpoint and its CQ (FI_THREAD_COMPLETION): sends and takes its completions. */
    private static void driveSender(final Ep sender, final MessageStream s)
    {
        MessageStream.until(s::allSendsCompleted, () -> s.trySend() | MessageStream.reapSends(sender.cq, s) > 0,
            s::toString);
    }

    private <T extends AutoCloseable> T track(final T closeable)
    {
        opened.add(closeable);
        return closeable;
    }

    private static void join(final Future<?>... futures) throws Exception
    {
        for (final Future<?> f : futures)
        {
            f.get(2 * MessageStream.TIMEOUT_S, TimeUnit.SECONDS);
        }
    }

    private record Ep(Endpoint ep, CompletionQueue cq)
    {
    }

    /** One domain of the test's root with one AV; endpoints each get their own CQ. */
    private final class Node
    {
        final Domain domain;
        final AddressVector av;
        final Info info;

        Node(final String name, final Threading model, final Progress progress)
        {
            final ShmProvider provider = root.provider(key -> null);
            final Info hints = new Info();
            hints.domainAttr().name(name).dataProgress(progress).threading(model);
            info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
            final Fabric fabric = track(provider.fabric(info.fabricAttr(), 0));
            domain = track(fabric.domain(info, 0));
            av = track(domain.avOpen(new AvAttr(), 0));
        }

        Ep endpoint()
        {
            final CompletionQueue cq = track(domain.cqOpen(new CqAttr().format(CqFormat.TAGGED), 0));
            final Endpoint ep = track(domain.endpoint(info, 0));
            ep.bind(av, 0);
            ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
            ep.enable();
            return new Ep(ep, cq);
        }

        long insert(final Ep ep)
        {
            final long[] out = new long[1];
            av.insert(new String[] { new String(ep.ep.getname(), StandardCharsets.US_ASCII) }, 1, out, 0, 0);
            return out[0];
        }
    }
}
