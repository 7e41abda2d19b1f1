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

import io.jfabric.examples.pubsub.Publisher;
import io.jfabric.examples.pubsub.Subscriber;
import io.jfabric.testsupport.PrivateRoot;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pubsub example as a user runs it: publisher and subscribers in separate JVMs on a private shm root. The
 * subscriber itself checks every payload byte and exits 2 on a damaged or out-of-order message, so exit status 0
 * plus the sequence numbers it printed say the messages arrived intact and in order.
 */
class PubSubTest
{
    private static final Pattern RECEIVED = Pattern.compile("^received publisher=(\\d+) seq=(\\d+) bytes=(\\d+)$");
    private static final long TIMEOUT_S = 60;

    @Test
    void shouldDeliverEveryMessageIntactAndInOrderToEachSubscriber() throws Exception
    {
        try (PrivateRoot root = new PrivateRoot("jfabric-examples-test-");
            ExampleJvm first = ExampleJvm.start("subscriber 1", Subscriber.class, root.dir());
            ExampleJvm second = ExampleJvm.start("subscriber 2", Subscriber.class, root.dir());
            ExampleJvm publisher = ExampleJvm.start("publisher", Publisher.class, root.dir(),
                "--count", "200", "--interval-ms", "0", "--min-subscribers", "2", "--size", "200"))
        {
            publisher.awaitSuccess(TIMEOUT_S);
            for (final ExampleJvm subscriber : List.of(first, second))
            {
                final List<String> lines = subscriber.awaitSuccess(TIMEOUT_S);
                final List<long[]> received = received(lines);
                assertEquals(LongStream.rangeClosed(1, 200).boxed().toList(),
                    received.stream().map(r -> r[1]).toList(), subscriber.output());
                assertTrue(received.stream().allMatch(r -> r[2] == 200), subscriber.output());
                assertEquals(1, received.stream().mapToLong(r -> r[0]).distinct().count(), subscriber.output());
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("subscriber: END from publisher")),
                    subscriber.output());
            }
        }
    }

    @Test
    void shouldReconnectWhenTheSubscriberRestarts() throws Exception
    {
        try (PrivateRoot root = new PrivateRoot("jfabric-examples-test-");
            ExampleJvm publisher = ExampleJvm.start("publisher", Publisher.class, root.dir(),
                "--count", "60", "--interval-ms", "10", "--min-subscribers", "1"))
        {
            try (ExampleJvm before = ExampleJvm.start("subscriber before", Subscriber.class, root.dir(),
                "--count", "10"))
            {
                final List<long[]> received = received(before.awaitSuccess(TIMEOUT_S));
                assertEquals(LongStream.rangeClosed(1, 10).boxed().toList(), received.stream().map(r -> r[1]).toList(),
                    before.output());
            }
            // The publisher finds the first subscriber gone at its next send, and pauses (--min-subscribers 1).
            publisher.awaitLine(l -> l.startsWith("publisher: subscriber left") && l.contains("FI_EHOSTUNREACH"),
                TIMEOUT_S);

            try (ExampleJvm after = ExampleJvm.start("subscriber after", Subscriber.class, root.dir()))
            {
                publisher.awaitSuccess(TIMEOUT_S);
                final List<long[]> received = received(after.awaitSuccess(TIMEOUT_S));
                final long first = received.get(0)[1];
                assertTrue(first > 10, after.output());
                assertEquals(LongStream.rangeClosed(first, 60).boxed().toList(),
                    received.stream().map(r -> r[1]).toList(), after.output());
            }
        }
    }

    @Test
    void shouldReconnectWhenThePublisherRestartsAfterACrash() throws Exception
    {
        try (PrivateRoot root = new PrivateRoot("jfabric-examples-test-");
            ExampleJvm subscriber = ExampleJvm.start("subscriber", Subscriber.class, root.dir()))
        {
            final long crashedId;
            try (ExampleJvm crashing = ExampleJvm.start("publisher 1", Publisher.class, root.dir(),
                "--count", "0", "--interval-ms", "10"))
            {
                subscriber.awaitLine(l -> l.startsWith("received ") && l.contains(" seq=5 "), TIMEOUT_S);
                crashing.kill();
                crashedId = received(subscriber.lines()).get(0)[0];
            }
            // Same well-known slot, held by a dead process: the new publisher takes it over.
            try (ExampleJvm restarted = ExampleJvm.start("publisher 2", Publisher.class, root.dir(),
                "--count", "20", "--interval-ms", "0"))
            {
                restarted.awaitSuccess(TIMEOUT_S);
                final List<long[]> received = received(subscriber.awaitSuccess(TIMEOUT_S));

                final List<Long> fromCrashed = received.stream().filter(r -> r[0] == crashedId).map(r -> r[1]).toList();
                final List<Long> fromRestarted =
                    received.stream().filter(r -> r[0] != crashedId).map(r -> r[1]).toList();
                assertTrue(fromCrashed.size() >= 5, subscriber.output());
                assertEquals(LongStream.rangeClosed(1, fromCrashed.size()).boxed().toList(), fromCrashed,
                    subscriber.output());
                assertEquals(LongStream.rangeClosed(1, 20).boxed().toList(), fromRestarted, subscriber.output());
                assertTrue(received.subList(0, fromCrashed.size()).stream().allMatch(r -> r[0] == crashedId),
                    "the crashed publisher's messages come first:\n" + subscriber.output());
            }
        }
    }

    @Test
    void shouldCloseEverythingOnSigterm() throws Exception
    {
        try (PrivateRoot root = new PrivateRoot("jfabric-examples-test-");
            ExampleJvm subscriber = ExampleJvm.start("subscriber", Subscriber.class, root.dir());
            ExampleJvm publisher = ExampleJvm.start("publisher", Publisher.class, root.dir(),
                "--count", "0", "--interval-ms", "10"))
        {
            subscriber.awaitLine(l -> l.startsWith("received ") && l.contains(" seq=3 "), TIMEOUT_S);
            // A JVM ended by SIGTERM exits 143 whatever it does; what matters is that its loop ended and it closed.
            publisher.terminate();
            assertTrue(publisher.lines().stream().anyMatch(l -> l.startsWith("publisher: stopped after")),
                publisher.output());
            subscriber.awaitLine(l -> l.contains("no publisher at") && l.contains("FI_EHOSTUNREACH"), TIMEOUT_S);
            subscriber.terminate();
            assertTrue(subscriber.lines().stream().anyMatch(l -> l.endsWith("(interrupted)")), subscriber.output());
        }
    }

    /**
     * @return (publisher id, sequence, payload bytes) of every "received" line, in order.
     */
    private static List<long[]> received(final List<String> lines)
    {
        final List<long[]> received = new ArrayList<>();
        for (final String line : lines)
        {
            final Matcher m = RECEIVED.matcher(line);
            if (m.matches())
            {
                received.add(new long[]{Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                    Long.parseLong(m.group(3))});
            }
        }
        return received;
    }
}
