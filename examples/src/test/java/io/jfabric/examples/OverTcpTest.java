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

import io.jfabric.Errno;
import io.jfabric.examples.pubsub.Publisher;
import io.jfabric.examples.pubsub.Subscriber;
import io.jfabric.examples.reqrep.Client;
import io.jfabric.examples.reqrep.Server;
import io.jfabric.examples.rma.Initiator;
import io.jfabric.testsupport.PrivateRoot;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each example, unchanged, over {@code tcp;ofi_rxm} on 127.0.0.1: the same main classes as the shm tests run, each
 * side in its own JVM (a JDK 22+ with the ofi provider, as bin/example-* starts them with {@code -p tcp}), the only
 * difference being {@code -p tcp} and a free port as {@code --service}. Messages above tcp's inject_size (64 B) go
 * with fi_send, shorter ones with fi_inject, and both kinds are exercised; reqrep's clients make themselves known with
 * a HELLO, as tcp shares no AV. Only loopback addresses are used.
 */
@NeedsOfiTcp
class OverTcpTest
{
    private static final Pattern RECEIVED = Pattern.compile("^received publisher=(\\d+) seq=(\\d+) bytes=200$");
    private static final long TIMEOUT_S = 120;

    @Test
    void shouldDeliverEveryPubSubMessageIntactAndInOrderOverTcp() throws Exception
    {
        final String port = freePort();
        try (PrivateRoot root = new PrivateRoot("jfabric-examples-test-");
            ExampleJvm first = ExampleJvm.startOnOfi("subscriber 1", Subscriber.class, root.dir(),
                "-p", "tcp", "--service", port);
            ExampleJvm second = ExampleJvm.startOnOfi("subscriber 2", Subscriber.class, root.dir(),
                "-p", "tcp", "--service", port);
            ExampleJvm publisher = ExampleJvm.startOnOfi("publisher", Publisher.class, root.dir(),
                "-p", "tcp", "--service", port, "--count", "200", "--interval-ms", "0", "--min-subscribers", "2",
                "--size", "200"))
        {
            final List<String> published = publisher.awaitSuccess(TIMEOUT_S);
            assertTrue(published.contains("publisher: sent 200 messages; END to 2 subscriber(s)"), publisher.output());
            for (final ExampleJvm subscriber : List.of(first, second))
            {
                final List<String> lines = subscriber.awaitSuccess(TIMEOUT_S);
                assertTrue(lines.stream().anyMatch(l -> l.matches("^subscriber: at fi_sockaddr_in://127\\.0\\.0\\.1:" +
                    "\\d+, publisher at 127\\.0\\.0\\.1:" + port + "$")), subscriber.output());
                assertEquals(LongStream.rangeClosed(1, 200).boxed().toList(), lines.stream()
                    .map(RECEIVED::matcher).filter(m -> m.matches()).map(m -> Long.parseLong(m.group(2))).toList(),
                    subscriber.output());
                assertTrue(lines.contains("subscriber: END from publisher " + publisher.pid() + " after seq=200"),
                    subscriber.output());
            }
        }
    }

    @Test
    void shouldAnswerEachReqRepClientOverTcpAfterItsHello() throws Exception
    {
        final String port = freePort();
        try (PrivateRoot root = new PrivateRoot("jfabric-examples-test-");
            ExampleJvm server = ExampleJvm.startOnOfi("server", Server.class, root.dir(),
                "-p", "tcp", "--service", port, "--clients", "2");
            // 24 + 100 bytes: above tcp's inject_size, the server replies with fi_send; 24 + 16: with fi_inject.
            ExampleJvm sends = ExampleJvm.startOnOfi("client 1", Client.class, root.dir(),
                "-p", "tcp", "--service", port, "--requests", "2000", "--warmup", "500", "--size", "100");
            ExampleJvm injects = ExampleJvm.startOnOfi("client 2", Client.class, root.dir(),
                "-p", "tcp", "--service", port, "--requests", "2000", "--warmup", "500", "--size", "16"))
        {
            for (final ExampleJvm client : List.of(sends, injects))
            {
                final String size = client == sends ? "100" : "16";
                final List<String> lines = client.awaitSuccess(TIMEOUT_S);
                assertTrue(lines.stream().anyMatch(l -> l.matches("^client: 2000 requests of " + size + " payload " +
                    "bytes \\(500 warm-up not counted\\): rtt_ns p50=\\d+ p99=\\d+ max=\\d+$")), client.output());
            }
            final List<String> lines = server.awaitSuccess(TIMEOUT_S);
            assertTrue(lines.contains("server: at fi_sockaddr_in://127.0.0.1:" + port + " (well-known address " +
                "127.0.0.1:" + port + "), clients say HELLO"), server.output());
            assertTrue(lines.contains("server: answered 5002 requests from 2 client(s)"), server.output());
        }
    }

    @Test
    void shouldWriteReadAndAddIntoTheTargetsMemoryOverTcp() throws Exception
    {
        final String port = freePort();
        try (PrivateRoot root = new PrivateRoot("jfabric-examples-test-"))
        {
            RmaTest.twoInitiatorsOneAfterTheOther((name, main, args) -> ExampleJvm.startOnOfi(name, main, root.dir(),
                Stream.concat(Stream.of("-p", "tcp", "--service", port), Stream.of(args)).toArray(String[]::new)),
                TIMEOUT_S);
        }
    }

    @Test
    void shouldTellTheUserToStartATargetWhenNoneListensOverTcp() throws Exception
    {
        final String port = freePort();
        try (PrivateRoot root = new PrivateRoot("jfabric-examples-test-");
            ExampleJvm initiator = ExampleJvm.startOnOfi("initiator", Initiator.class, root.dir(),
                "-p", "tcp", "--service", port, "--timeout-s", "2"))
        {
            assertEquals(Errno.FI_ETIMEDOUT, initiator.awaitExit(TIMEOUT_S), initiator.output());
            assertTrue(initiator.output().contains("fetch-add on the counter was not taken within 2 s: no target at " +
                "its address; start one first (bin/example-rma target)"), initiator.output());
        }
    }

    /**
     * @return a TCP port of 127.0.0.1 free a moment ago (the kernel's choice), so that concurrent builds on this
     *         host do not meet on a fixed one.
     */
    private static String freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1")))
        {
            return Integer.toString(socket.getLocalPort());
        }
    }
}
