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

import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Issue 27: shared contexts set up the way fabtests' {@code shared_ctx} sets them up work between two processes, in
 * both directions. Each JVM opens a {@link SharedContextSide} (four endpoints on one shared transmit and one shared
 * receive context); endpoint i of each side sends to endpoint i of the other, and every message arrives through the
 * shared receive context. The modes are the two ways shared contexts failed before: a domain opened from the
 * FI_SHARED_CONTEXT info (the shared receive context inherited FI_SHARED_CONTEXT and its enable asked for an
 * fi_stx_context) and contexts opened with the info's tx_attr and rx_attr (the shared receive context took them as
 * able to send and its enable asked for a transmit CQ), and the two together as fabtests does.
 */
class SharedContextTwoJvmTest
{
    private static final String DOMAIN = "sharedctx";

    private ShmTestRoot root;
    private ChildJvm child;

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
    }

    @AfterEach
    void close() throws Exception
    {
        try
        {
            if (child != null)
            {
                child.close();
            }
        }
        finally
        {
            root.close();
        }
    }

    @ParameterizedTest
    @EnumSource(SharedContextSide.Mode.class)
    void shouldExchangeMessagesBothWaysThroughSharedContextsSetUpAsFabtestsDoes(final SharedContextSide.Mode mode)
        throws Exception
    {
        child = ChildJvm.start(SharedContextPeerMain.class, List.of("jfabric.shm.dir=" + root.dir()), DOMAIN,
            mode.name());
        try (SharedContextSide local = new SharedContextSide(root.provider(), DOMAIN, mode))
        {
            final Map<String, String> ready = child.awaitResult(60);
            assertEquals(null, ready.get("error"), "the second process's set-up");
            final String childAddrs = ready.get("addrs");
            assertNotNull(childAddrs, child.output());
            local.connect(childAddrs);
            child.tell("peers " + local.addresses());
            local.sendAll('A');
            assertEquals("B0,B1,B2,B3", local.awaitCompletions(30_000), "what this JVM received");
            assertEquals("A0,A1,A2,A3", child.awaitResult(60).get("got"), "what the second JVM received");
            child.tell("exit");
            child.awaitSuccess(60);
        }
    }
}
