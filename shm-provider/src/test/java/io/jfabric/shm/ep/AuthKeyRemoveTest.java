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
import io.jfabric.Domain;
import io.jfabric.DomainAttr;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;
import io.jfabric.testsupport.OpenedObjects;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 27, fi_av(3): an authorization key "will only be removed if all endpoints, which have been enabled against
 * the corresponding authorization key, have been closed. If all endpoints are not closed, -FI_EBUSY will be
 * returned." An endpoint enabled in a domain opened with FI_AV_AUTH_KEY is enabled against every key of its AV; the
 * key stays until it closes, whether it is an endpoint of this process or, on a named AV, of another one. Before the
 * fix the key was removed under the open endpoint.
 */
class AuthKeyRemoveTest
{
    private static final String DOMAIN = "keyhold";

    private final OpenedObjects opened = new OpenedObjects();
    private ShmTestRoot root;
    private Info info;
    private Domain domain;
    private CompletionQueue cq;

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider();
        final Info hints = new Info();
        hints.domainAttr().name(DOMAIN).authKeySize(DomainAttr.FI_AV_AUTH_KEY);
        info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        domain = opened.keep(fabric.domain(info, 0));
        cq = opened.keep(domain.cqOpen(new CqAttr(), 0));
    }

    @AfterEach
    void close() throws Exception
    {
        try
        {
            opened.close();
        }
        finally
        {
            root.close();
        }
    }

    @Test
    void shouldRefuseToRemoveAKeyWhileAnEndpointEnabledAgainstItIsOpen()
    {
        final AddressVector av = opened.keep(domain.avOpen(new AvAttr(), 0));
        final long[] keys = {av.insertAuthKey(key("alpha"), 0), av.insertAuthKey(key("beta"), 0)};
        final Endpoint ep = enabled(av);
        final long gamma = av.insertAuthKey(key("gamma"), 0);

        final FabricException busy = assertThrows(FabricException.class,
            () -> av.remove(keys, 2, Flags.FI_AUTH_KEY));
        assertEquals(Errno.FI_EBUSY, busy.errno());
        assertTrue(busy.getMessage().contains("enabled against it"), busy.getMessage());
        assertEquals(5, av.lookupAuthKey(keys[0], new byte[8]), "nothing was removed");
        av.remove(new long[] {gamma}, 1, Flags.FI_AUTH_KEY); // inserted after the enable: not held

        ep.close();
        av.remove(keys, 2, Flags.FI_AUTH_KEY);
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class,
            () -> av.lookupAuthKey(keys[1], new byte[8])).errno(), "removed once the endpoint closed");
    }

    @Test
    void shouldRefuseToRemoveAKeyOfANamedAvWhileAnotherProcesssEndpointHoldsIt() throws Exception
    {
        final AddressVector av = opened.keep(domain.avOpen(new AvAttr().name("shared"), 0));
        final long[] alpha = {av.insertAuthKey(key("alpha"), 0)};
        final ChildJvm holder = opened.keep(ChildJvm.start(KeyHolderPeerMain.class,
            List.of("jfabric.shm.dir=" + root.dir()), DOMAIN, "shared"));
        assertEquals("1", holder.awaitResult(60).get("enabled"));

        assertEquals(Errno.FI_EBUSY, assertThrows(FabricException.class,
            () -> av.remove(alpha, 1, Flags.FI_AUTH_KEY)).errno(), "the other process's endpoint holds alpha");

        holder.tell("close");
        assertEquals("1", holder.awaitResult(60).get("closed"));
        av.remove(alpha, 1, Flags.FI_AUTH_KEY);
        holder.tell("exit");
        holder.awaitSuccess(60);
    }

    private Endpoint enabled(final AddressVector av)
    {
        final Endpoint ep = domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
        return ep;
    }

    private static byte[] key(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
