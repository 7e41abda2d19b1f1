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

import io.jfabric.examples.reqrep.Client;
import io.jfabric.examples.reqrep.Server;
import io.jfabric.testsupport.PrivateRoot;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reqrep example as a user runs it: a server and two clients in separate JVMs on a private shm root. Each client
 * checks that every reply is its own request (its id, sequence number and payload), so two clients exiting 0 say
 * the server's FI_SOURCE addresses sent each reply to the right one.
 */
class ReqRepTest
{
    private static final Pattern RTT = Pattern.compile(
        "^client: 2000 requests of 100 payload bytes \\(500 warm-up not counted\\): rtt_ns p50=\\d+ p99=\\d+ max=\\d+$");
    private static final long TIMEOUT_S = 60;

    @Test
    void shouldAnswerEachClientAtItsSourceAddress() throws Exception
    {
        try (PrivateRoot root = new PrivateRoot("jfabric-examples-test-");
            // The first client starts before the server and waits for it (FI_EHOSTUNREACH until it is there).
            ExampleJvm early = ExampleJvm.start("client 1", Client.class, root.dir(),
                "--requests", "2000", "--warmup", "500", "--size", "100");
            ExampleJvm server = ExampleJvm.start("server", Server.class, root.dir(), "--clients", "2");
            ExampleJvm late = ExampleJvm.start("client 2", Client.class, root.dir(),
                "--requests", "2000", "--warmup", "500", "--size", "100"))
        {
            for (final ExampleJvm client : List.of(early, late))
            {
                final List<String> lines = client.awaitSuccess(TIMEOUT_S);
                assertTrue(lines.stream().anyMatch(l -> RTT.matcher(l).matches()), client.output());
            }
            final List<String> lines = server.awaitSuccess(TIMEOUT_S);
            assertTrue(lines.contains("server: answered 5002 requests from 2 client(s)"), server.output());
        }
    }
}
