package io.jfabric.examples;

import io.jfabric.examples.reqrep.Client;
import io.jfabric.examples.reqrep.Server;
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
        try (ShmRoot root = new ShmRoot();
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
