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
package io.jfabric.tools.fipp;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.ofi.NeedsLibfabric;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The endpoint of {@code jfabric pingpong/bw -p tcp -d lo} (the tools' {@link FiEndpoint}, run here against the
 * real tcp;ofi_rxm) is in the loopback domain: libfabric 1.17's tcp;ofi_rxm ignores the hints' domain name and
 * answers the first interface (eth0) first, so the tools' runs went over eth0's address although they named lo.
 */
@NeedsLibfabric
class FiEndpointDomainTest
{
    @Test
    void shouldOpenTheNamedDomainAndBindToItsAddress()
    {
        try (FiEndpoint ep = new FiEndpoint("tcp", "lo", null, 64, false))
        {
            assertEquals("lo", ep.info.domainAttr().name());
            final byte[] name = ep.ep.getname(); // struct sockaddr_in: family, port, then the IPv4 address
            assertTrue(name.length >= 8, () -> "name of " + name.length + " bytes");
            assertArrayEquals(new byte[] {127, 0, 0, 1}, java.util.Arrays.copyOfRange(name, 4, 8));
        }
    }

    @Test
    void shouldRefuseADomainTheProviderDoesNotOffer()
    {
        final FabricException ex = assertThrows(FabricException.class,
            () -> new FiEndpoint("tcp", "no-such-domain", null, 64, false).close());
        assertEquals(Errno.FI_ENODATA, ex.errno(), ex.getMessage());
        assertTrue(ex.getMessage().contains("no-such-domain") && ex.getMessage().contains("lo"), ex.getMessage());
    }
}
