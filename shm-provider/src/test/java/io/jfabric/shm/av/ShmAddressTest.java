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
package io.jfabric.shm.av;

import io.jfabric.Errno;
import io.jfabric.shm.core.LocalHost;

import org.junit.jupiter.api.Test;

import static io.jfabric.shm.av.AvTestSupport.assertErrno;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShmAddressTest
{
    @Test
    void shouldParseAndPrintTheCanonicalForm()
    {
        final ShmAddress address = ShmAddress.parse("fi_shm://build7:3/orders?gen=12");
        assertEquals("build7", address.host());
        assertEquals(3, address.slot());
        assertEquals("orders", address.domain());
        assertEquals(12, address.incarnation());
        assertEquals("fi_shm://build7:3/orders?gen=12", address.format());
        assertEquals("fi_shm://build7:0/orders", ShmAddress.format("build7", 0, "orders", 0));
        assertEquals(0, ShmAddress.parse("fi_shm://build7:0/orders").incarnation());
        assertEquals(address, ShmAddress.parse(address.format()));
    }

    @Test
    void shouldTellLocalHostsFromOthers()
    {
        assertTrue(ShmAddress.parse(ShmAddress.format(LocalHost.name(), 1, "d", 0)).isLocal());
        assertTrue(ShmAddress.parse("fi_shm://localhost:1/d").isLocal());
        assertFalse(ShmAddress.parse("fi_shm://elsewhere.example:1/d").isLocal());
    }

    @Test
    void shouldRefuseMalformedAddressesWithEinval()
    {
        for (final String bad : new String[]{
            null, "", "fi_sockets://h:1/d", "fi_shm://", "fi_shm://h", "fi_shm://h:1", "fi_shm://:1/d",
            "fi_shm://h:/d", "fi_shm://h:-1/d", "fi_shm://h:01/d", "fi_shm://h:x/d", "fi_shm://h:1/",
            "fi_shm://h:1/.d", "fi_shm://h:1/d/e", "fi_shm://h:1/d?gen=", "fi_shm://h:1/d?gen=x",
            "fi_shm://h:1/d?other=1", "fi_shm://h:99999999999/d", "fi_shm://h:1/" + "d".repeat(400) })
        {
            assertErrno(Errno.FI_EINVAL, () -> ShmAddress.parse(bad), String.valueOf(bad));
        }
    }
}
