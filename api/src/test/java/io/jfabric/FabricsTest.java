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
package io.jfabric;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pins {@link Fabrics}' own rules, the ones that hold before any provider is asked: API version (FI_ENOSYS), getinfo
 * flags (FI_EBADFLAGS), prov_name selection ({@link ProviderNames}), and FI_ENODATA when no provider answers. The
 * api module has no provider of its own (it depends on nothing), so every getinfo here that passes the argument
 * checks finds nothing; ShmGetInfoTest covers the same calls with the shm provider registered.
 */
class FabricsTest
{
    private static final int VERSION = Versions.FI_CURRENT_VERSION;
    private static final long KNOWN_FLAGS = Flags.FI_NUMERICHOST | Flags.FI_SOURCE | Flags.FI_PROV_ATTR_ONLY;

    private static FabricException assertErrno(final int errno, final Runnable call)
    {
        final FabricException ex = assertThrows(FabricException.class, call::run);
        assertEquals(errno, ex.errno(), ex::getMessage);
        return ex;
    }

    private static void assertMessageContains(final FabricException ex, final String fragment)
    {
        assertTrue(ex.getMessage().contains(fragment), () -> "should name '" + fragment + "': " + ex.getMessage());
    }

    @Test
    void shouldRefuseApiVersionTwoWithEnosys()
    {
        final FabricException ex = assertErrno(Errno.FI_ENOSYS,
            () -> Fabrics.getInfo(Versions.version(2, 0), null, null, 0, null));
        assertMessageContains(ex, "API version 2.0 is not supported");
        assertMessageContains(ex, "up to 1.17");
    }

    @ParameterizedTest
    @CsvSource({"1, 18", "1, 65535", "0, 9", "0, 0", "3, 1"})
    void shouldRefuseApiVersionsThisLibraryDoesNotImplementWithEnosys(final int major, final int minor)
    {
        final FabricException ex = assertErrno(Errno.FI_ENOSYS,
            () -> Fabrics.getInfo(Versions.version(major, minor), null, null, 0, null));
        assertMessageContains(ex, "API version " + major + "." + minor);
    }

    @ParameterizedTest
    @CsvSource({"1, 0", "1, 5", "1, 17"})
    void shouldAcceptEveryVersionUpToTheCurrentOne(final int major, final int minor)
    {
        assertErrno(Errno.FI_ENODATA, () -> Fabrics.getInfo(Versions.version(major, minor), null, null, 0, null));
    }

    @Test
    void shouldRefuseEveryUnknownFlagBitWithEbadflags()
    {
        int refused = 0;
        for (int bit = 0; bit < 64; bit++)
        {
            final long flag = 1L << bit;
            if ((flag & KNOWN_FLAGS) != 0)
            {
                continue;
            }
            final FabricException ex = assertErrno(Errno.FI_EBADFLAGS,
                () -> Fabrics.getInfo(VERSION, null, null, flag, null));
            assertMessageContains(ex, "unsupported flags 0x" + Long.toHexString(flag));
            refused++;
        }
        assertEquals(61, refused);
    }

    @Test
    void shouldNameOnlyTheUnknownBitsWhenKnownFlagsAreMixedIn()
    {
        final FabricException ex = assertErrno(Errno.FI_EBADFLAGS,
            () -> Fabrics.getInfo(VERSION, null, null, Flags.FI_PROV_ATTR_ONLY | Flags.FI_MSG, null));
        assertMessageContains(ex, "unsupported flags 0x" + Long.toHexString(Flags.FI_MSG));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, Flags.FI_NUMERICHOST, Flags.FI_SOURCE, Flags.FI_PROV_ATTR_ONLY,
        Flags.FI_NUMERICHOST | Flags.FI_SOURCE | Flags.FI_PROV_ATTR_ONLY})
    void shouldAcceptTheKnownFlags(final long flags)
    {
        // past the flag check; with no provider registered the answer is "nothing matches"
        assertErrno(Errno.FI_ENODATA, () -> Fabrics.getInfo(VERSION, "localhost", null, flags, null));
    }

    @Test
    void shouldFindNoProviderInTheApiModuleAlone()
    {
        final List<io.jfabric.spi.FabricProvider> providers = Fabrics.providers();
        assertTrue(providers.isEmpty(), providers::toString);
        assertThrows(UnsupportedOperationException.class, () -> providers.add(null));
    }

    @Test
    void shouldReportEnodataWhenNoProviderMatches()
    {
        final FabricException ex = assertErrno(Errno.FI_ENODATA, () -> Fabrics.getInfo(VERSION, null, null, 0, null));
        assertMessageContains(ex, "no provider matches the hints");
    }

    @Test
    void shouldNameTheUnknownProviderAndNodeInEnodata()
    {
        final Info hints = new Info();
        hints.fabricAttr().provName("foo");
        final FabricException ex = assertErrno(Errno.FI_ENODATA,
            () -> Fabrics.getInfo(VERSION, "node1", null, 0, hints));
        assertMessageContains(ex, "(prov_name=foo)");
        assertMessageContains(ex, "(node=node1)");
    }

    @Test
    void shouldLeaveHintsUnchanged()
    {
        final Info hints = new Info().caps(Flags.FI_MSG);
        hints.fabricAttr().provName("shm");
        final String before = ToStr.toStr(hints);
        assertErrno(Errno.FI_ENODATA, () -> Fabrics.getInfo(VERSION, null, null, 0, hints));
        assertEquals(before, ToStr.toStr(hints));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "shm       | true",
        "SHM       | true",
        "Shm       | true",
        "' shm '   | true",
        "foo;shm   | false",
        "shm;foo   | false",
        "foo,shm   | false",
        "foo; shm  | false",
        "^shm      | false",
        "^SHM      | false",
        "^foo;shm  | false",
        "^foo      | true",
        "^verbs;tcp| false",
        "foo       | false",
        "sh        | false",
        "shmx      | false",
        "ofi_rxm   | false"})
    void shouldSelectOneProviderByNameAndNoneForALayeredList(final String requested, final boolean selectsShm)
    {
        assertEquals(selectsShm, ProviderNames.matches(requested, "shm"));
    }

    @Test
    void shouldRefuseNullFabricAttributesWithEinval()
    {
        final FabricException ex = assertErrno(Errno.FI_EINVAL, () -> Fabrics.fabric(null, 0));
        assertMessageContains(ex, "attr must not be null");
    }

    @Test
    void shouldRefuseFabricOfAnUnknownProviderWithEnodata()
    {
        final FabricException ex = assertErrno(Errno.FI_ENODATA,
            () -> Fabrics.fabric(new FabricAttr().provName("foo"), 0));
        assertMessageContains(ex, "no provider named 'foo'");
    }
}
