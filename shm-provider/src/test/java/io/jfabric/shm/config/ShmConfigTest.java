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
package io.jfabric.shm.config;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.ShmProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pins {@link ShmConfig}: the default of every setting, the range of every numeric setting (both bounds accepted,
 * one past refused), and that a value that does not parse, is out of range or is not a power of two where one is
 * required is refused with FI_EINVAL naming the setting and the value, never silently replaced by the default.
 */
class ShmConfigTest
{
    private static ShmConfig config(final String key, final String value)
    {
        return ShmConfig.of(Map.of(key, value)::get);
    }

    private static FabricException assertInvalid(final String key, final String value, final String... fragments)
    {
        final FabricException ex = assertThrows(FabricException.class, () -> config(key, value));
        assertEquals(Errno.FI_EINVAL, ex.errno(), ex::getMessage);
        assertTrue(ex.getMessage().contains(ShmConfig.PREFIX + key), () -> "names the setting: " + ex.getMessage());
        for (final String fragment : fragments)
        {
            assertTrue(ex.getMessage().contains(fragment), () -> "names '" + fragment + "': " + ex.getMessage());
        }
        return ex;
    }

    /** The settings that are byte counts. */
    static final Set<String> BYTE_COUNTS = Set.of("inject.size", "rx.ring.bytes", "tx.ring.bytes", "cq.ring.bytes",
        "max.msg.size", "max.err.data", "rendezvous.min", "unexpected.bytes");

    /** A numeric setting: its key, default, range and getter. */
    static final class Setting
    {
        final String key;
        final long dflt;
        final long min;
        final long max;
        final ToLongFunction<ShmConfig> get;
        /** Whether it is a byte count, which takes k, m and g as the tools' sizes do. */
        final boolean size;

        Setting(final String key, final long dflt, final long min, final long max, final ToLongFunction<ShmConfig> get)
        {
            this.key = key;
            this.dflt = dflt;
            this.min = min;
            this.max = max;
            this.get = get;
            this.size = BYTE_COUNTS.contains(key);
        }

        /** @return the words the refusal of a value that does not parse uses. */
        String notParsed()
        {
            return size ? "is not a size (bytes, or with k, m or g" : "is not a number";
        }

        @Override
        public String toString()
        {
            return key;
        }
    }

    static Stream<Setting> settings()
    {
        return Stream.of(
            new Setting("ep.count", 24, 1, 1 << 16, ShmConfig::epCount),
            new Setting("cq.count", 24, 1, 1 << 16, ShmConfig::cqCount),
            new Setting("cntr.count", 128, 1, 1 << 20, ShmConfig::counterCount),
            new Setting("mr.count", 4096, 1, 1 << 24, ShmConfig::mrCount),
            new Setting("mr.iov.limit", 8, 1, 1024, ShmConfig::mrIovLimit),
            new Setting("rx.size", 1024, 1, 1 << 20, ShmConfig::rxSize),
            new Setting("tx.size", 1024, 1, 1 << 20, ShmConfig::txSize),
            new Setting("cq.size", 1024, 1, 1 << 24, ShmConfig::cqSize),
            new Setting("inject.size", 4096, 0, 1 << 16, ShmConfig::injectSize),
            new Setting("rx.ring.bytes", 1 << 16, 1 << 12, 1 << 30, ShmConfig::rxRingBytes),
            new Setting("tx.ring.bytes", 1 << 18, 1 << 12, 1 << 30, ShmConfig::txRingBytes),
            new Setting("cq.ring.bytes", 1 << 18, 1 << 12, 1 << 30, ShmConfig::cqRingBytes),
            new Setting("max.msg.size", 1L << 30, 1, Long.MAX_VALUE, ShmConfig::maxMsgSize),
            new Setting("eq.size", 1024, 1, 1 << 24, ShmConfig::eqSize),
            new Setting("max.err.data", 64, 0, 1 << 16, ShmConfig::maxErrData),
            new Setting("progress.sleep.ns", 50_000, 1, 1_000_000_000L, ShmConfig::progressSleepNs),
            new Setting("rendezvous.min", 2048, 0, Integer.MAX_VALUE, ShmConfig::rendezvousMin));
    }

    static Stream<String> ringSettings()
    {
        return Stream.of("rx.ring.bytes", "tx.ring.bytes", "cq.ring.bytes");
    }

    @ParameterizedTest
    @MethodSource("settings")
    void shouldTakeTheDefaultWhenTheSettingIsAbsent(final Setting setting)
    {
        assertEquals(setting.dflt, setting.get.applyAsLong(ShmConfig.of(key -> null)));
    }

    @ParameterizedTest
    @MethodSource("settings")
    void shouldTakeTheDefaultWhenTheSettingIsBlank(final Setting setting)
    {
        assertEquals(setting.dflt, setting.get.applyAsLong(config(setting.key, "")));
        assertEquals(setting.dflt, setting.get.applyAsLong(config(setting.key, "  ")));
    }

    @ParameterizedTest
    @MethodSource("settings")
    void shouldAcceptBothBoundsOfTheRange(final Setting setting)
    {
        assertEquals(setting.min, setting.get.applyAsLong(config(setting.key, Long.toString(setting.min))));
        assertEquals(setting.max, setting.get.applyAsLong(config(setting.key, Long.toString(setting.max))));
    }

    @ParameterizedTest
    @MethodSource("settings")
    void shouldTrimSurroundingWhitespace(final Setting setting)
    {
        assertEquals(setting.min, setting.get.applyAsLong(config(setting.key, " " + setting.min + "\t")));
    }

    @ParameterizedTest
    @MethodSource("settings")
    void shouldRefuseValueBelowTheRangeWithEinval(final Setting setting)
    {
        final long below = setting.min - 1;
        assertInvalid(setting.key, Long.toString(below),
            "=" + below + " is outside [" + setting.min + ", " + setting.max + "]");
    }

    @ParameterizedTest
    @MethodSource("settings")
    void shouldRefuseValueAboveTheRangeWithEinval(final Setting setting)
    {
        if (setting.max == Long.MAX_VALUE)
        {
            assertInvalid(setting.key, "9223372036854775808", "'9223372036854775808' " + setting.notParsed());
            return;
        }
        final long above = setting.max + 1;
        assertInvalid(setting.key, Long.toString(above),
            "=" + above + " is outside [" + setting.min + ", " + setting.max + "]");
    }

    @ParameterizedTest
    @MethodSource("settings")
    void shouldRefuseNonNumberWithEinval(final Setting setting)
    {
        for (final String bad : new String[] {"abc", "1.5", "0x10", "1e3", "--1", "12q"})
        {
            assertInvalid(setting.key, bad, "'" + bad + "' " + setting.notParsed());
        }
        if (!setting.size)
        {
            assertInvalid(setting.key, "12k", "'12k' is not a number");
        }
    }

    @ParameterizedTest
    @MethodSource("settings")
    void shouldTakeByteCountsWithKMOrGAsTheToolsDo(final Setting setting)
    {
        if (!setting.size)
        {
            return;
        }
        final long k = setting.max >= 64L << 10 ? 64 : 1;
        assertEquals(k << 10, setting.get.applyAsLong(config(setting.key, k + "k")));
        assertEquals(k << 10, setting.get.applyAsLong(config(setting.key, k + "K")));
        if (setting.max >= 1L << 20)
        {
            assertEquals(1L << 20, setting.get.applyAsLong(config(setting.key, "1m")));
        }
        if (setting.max >= 1L << 30)
        {
            assertEquals(1L << 30, setting.get.applyAsLong(config(setting.key, "1g")));
        }
    }

    @ParameterizedTest
    @MethodSource("ringSettings")
    void shouldRefuseRingBytesThatAreNotAPowerOfTwoWithEinval(final String key)
    {
        for (final int bad : new int[] {5000, 4097, 12288, (1 << 30) - 1, 3 << 20})
        {
            assertInvalid(key, Integer.toString(bad), "=" + bad + " is not a power of two");
        }
    }

    @ParameterizedTest
    @MethodSource("ringSettings")
    void shouldAcceptEveryPowerOfTwoRingSizeInRange(final String key)
    {
        for (int shift = 12; shift <= 30; shift++)
        {
            final ShmConfig config = config(key, Integer.toString(1 << shift));
            final int bytes = key.startsWith("rx") ? config.rxRingBytes() :
                key.startsWith("tx") ? config.txRingBytes() : config.cqRingBytes();
            assertEquals(1 << shift, bytes);
        }
    }

    @Test
    void shouldRefuseARingBelowTheMinimumAsOutOfRangeEvenIfAPowerOfTwo()
    {
        assertInvalid("rx.ring.bytes", "2048", "is outside [4096, 1073741824]");
    }

    @Test
    void shouldDefaultTheRootDirectoryToAPerUserDirectoryUnderDevShm()
    {
        final String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        final Path base = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") :
            Path.of(System.getProperty("java.io.tmpdir"));
        assertEquals(base.resolve("jfabric-" + user), ShmConfig.of(key -> null).rootDir());
        assertEquals(base.resolve("jfabric-" + user), config("dir", " ").rootDir());
    }

    @Test
    void shouldTakeTheRootDirectoryAsGiven()
    {
        assertEquals(Path.of("/tmp/somewhere/else"), config("dir", "/tmp/somewhere/else").rootDir());
    }

    @Test
    void shouldDefaultToOwnerOnlyFiles()
    {
        assertFalse(ShmConfig.of(key -> null).groupAccess());
        assertFalse(config("group.access", "false").groupAccess());
        assertTrue(config("group.access", "true").groupAccess());
        assertTrue(config("group.access", "TRUE").groupAccess());
    }

    @Test
    void shouldGrowTheUnexpectedStoreAsNeededUnlessToldToPreallocateIt()
    {
        assertFalse(ShmConfig.of(key -> null).unexpectedPreallocate());
        assertTrue(config("unexpected.preallocate", "true").unexpectedPreallocate());
        assertInvalid("unexpected.preallocate", "yes", "'yes'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "1", "on", "ture", "enabled"})
    void shouldRefuseGroupAccessThatIsNotABooleanWithEinval(final String value)
    {
        assertInvalid("group.access", value, "'" + value + "'");
    }

    @Test
    void shouldTakeTheProgressChoicesAndRefuseOthersByName()
    {
        assertEquals("backoff", config("progress.idle", "").progressIdle());
        assertEquals("domain", config("progress.agent", "").progressAgent());
        assertEquals("busy", config("progress.idle", " BUSY ").progressIdle());
        assertEquals("endpoint", config("progress.agent", "endpoint").progressAgent());
        assertInvalid("progress.idle", "fast", "progress.idle", "fast", "busy, yield, backoff, sleep");
        assertInvalid("progress.agent", "thread", "progress.agent", "domain, endpoint");
    }

    @Test
    void shouldLeaveOtherSettingsAtTheirDefaultWhenOneIsSet()
    {
        final ShmConfig config = config("ep.count", "3");
        assertEquals(3, config.epCount());
        assertEquals(24, config.cqCount());
        assertEquals(1 << 16, config.rxRingBytes());
    }

    @Test
    void shouldReadSettingsFromSystemProperties()
    {
        final String key = ShmConfig.PREFIX + "cntr.count";
        final String previous = System.getProperty(key);
        System.setProperty(key, "77");
        try
        {
            assertEquals(77, ShmConfig.load().counterCount());
        }
        finally
        {
            restore(key, previous);
        }
    }

    @Test
    void shouldRefuseABadSystemPropertyWithEinvalNamingIt()
    {
        final String key = ShmConfig.PREFIX + "tx.ring.bytes";
        final String previous = System.getProperty(key);
        System.setProperty(key, "5000");
        try
        {
            final FabricException ex = assertThrows(FabricException.class, ShmConfig::load);
            assertEquals(Errno.FI_EINVAL, ex.errno());
            assertTrue(ex.getMessage().contains("jfabric.shm.tx.ring.bytes=5000 is not a power of two"),
                ex::getMessage);
        }
        finally
        {
            restore(key, previous);
        }
    }

    @Test
    void shouldRunTheProviderWithTheGivenConfiguration()
    {
        final ShmConfig config = config("ep.count", "5");
        final ShmProvider provider = new ShmProvider(config);
        assertSame(config, provider.config());
        assertEquals(5, provider.getInfo(io.jfabric.Versions.FI_CURRENT_VERSION, null, null, 0, null).get(0)
            .domainAttr().epCnt());
    }

    private static void restore(final String key, final String previous)
    {
        if (previous == null)
        {
            System.clearProperty(key);
        }
        else
        {
            System.setProperty(key, previous);
        }
    }
}
