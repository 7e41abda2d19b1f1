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

import org.agrona.SystemUtil;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * The one place where the shm provider's sizes, limits and root directory are configured.
 * <p>
 * Each setting is read from a system property, else from an environment variable, else a default:
 * <table>
 *   <caption>settings</caption>
 *   <tr><th>property</th><th>environment</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>jfabric.shm.dir</td><td>JFABRIC_SHM_DIR</td><td>/dev/shm/jfabric-USER</td>
 *       <td>root directory of every shared file (domain regions, AVs, segments); an absolute path</td></tr>
 *   <tr><td>jfabric.shm.group.access</td><td>JFABRIC_SHM_GROUP_ACCESS</td><td>false</td>
 *       <td>share the root with its group: files 0660 (given the root's group) instead of 0600, a new root 02770;
 *       a root another user owns is accepted when only its group may write it (see RegionDirectory)</td></tr>
 *   <tr><td>jfabric.shm.ep.count</td><td>JFABRIC_SHM_EP_COUNT</td><td>24</td>
 *       <td>endpoint slots per domain region: ep_cnt, tx_ctx_cnt and rx_ctx_cnt; a scalable endpoint takes one per
 *       context plus one, a shared receive context one, so max_ep_tx_ctx and max_ep_rx_ctx are (ep.count - 1) / 2
 *       (at most 16) and max_ep_srx_ctx ep.count - 1. Each slot has one receive lane per slot, so the region grows
 *       with the square of this: 24.6 MiB at 16, 48.9 MiB at 24, 81.2 MiB at 32 with the default rings. 24 lets two
 *       processes each open a scalable endpoint of 4 + 4 contexts (9 slots each) with room left</td></tr>
 *   <tr><td>jfabric.shm.cq.count</td><td>JFABRIC_SHM_CQ_COUNT</td><td>24</td><td>cq_cnt (at most ep.count: the region has one completion ring per slot)</td></tr>
 *   <tr><td>jfabric.shm.cntr.count</td><td>JFABRIC_SHM_CNTR_COUNT</td><td>128</td><td>cntr_cnt</td></tr>
 *   <tr><td>jfabric.shm.mr.count</td><td>JFABRIC_SHM_MR_COUNT</td><td>4096</td>
 *       <td>mr_cnt: entries of the region's key table</td></tr>
 *   <tr><td>jfabric.shm.mr.iov.limit</td><td>JFABRIC_SHM_MR_IOV_LIMIT</td><td>8</td><td>mr_iov_limit</td></tr>
 *   <tr><td>jfabric.shm.rx.size</td><td>JFABRIC_SHM_RX_SIZE</td><td>1024</td><td>rx_attr.size: posted receives</td></tr>
 *   <tr><td>jfabric.shm.tx.size</td><td>JFABRIC_SHM_TX_SIZE</td><td>1024</td><td>tx_attr.size: outstanding sends</td></tr>
 *   <tr><td>jfabric.shm.cq.size</td><td>JFABRIC_SHM_CQ_SIZE</td><td>1024</td><td>default and largest CQ depth</td></tr>
 *   <tr><td>jfabric.shm.inject.size</td><td>JFABRIC_SHM_INJECT_SIZE</td><td>4096</td><td>tx_attr.inject_size</td></tr>
 *   <tr><td>jfabric.shm.rx.ring.bytes</td><td>JFABRIC_SHM_RX_RING_BYTES</td><td>65536</td>
 *       <td>capacity of each receive lane, one per (sender, receiver) pair of slots (power of two); a message up
 *       to an eighth of it travels in one record, larger ones in pieces</td></tr>
 *   <tr><td>jfabric.shm.tx.ring.bytes</td><td>JFABRIC_SHM_TX_RING_BYTES</td><td>262144</td>
 *       <td>capacity of each endpoint's transmit-context ring (power of two)</td></tr>
 *   <tr><td>jfabric.shm.cq.ring.bytes</td><td>JFABRIC_SHM_CQ_RING_BYTES</td><td>262144</td>
 *       <td>capacity of each endpoint's completion ring (power of two)</td></tr>
 *   <tr><td>jfabric.shm.max.msg.size</td><td>JFABRIC_SHM_MAX_MSG_SIZE</td><td>1073741824</td><td>ep_attr.max_msg_size</td></tr>
 *   <tr><td>jfabric.shm.eq.size</td><td>JFABRIC_SHM_EQ_SIZE</td><td>1024</td><td>default and largest EQ depth</td></tr>
 *   <tr><td>jfabric.shm.max.err.data</td><td>JFABRIC_SHM_MAX_ERR_DATA</td><td>64</td><td>max_err_data</td></tr>
 *   <tr><td>jfabric.shm.av.max.count</td><td>JFABRIC_SHM_AV_MAX_COUNT</td><td>65536</td>
 *       <td>largest fi_av_attr.count an AV may be opened with (FI_ENOSYS beyond)</td></tr>
 *   <tr><td>jfabric.shm.rendezvous.min</td><td>JFABRIC_SHM_RENDEZVOUS_MIN</td><td>2048</td>
 *       <td>sends of at least this many bytes from registered shareable memory go by rendezvous: the receiver
 *       copies them once from the sender's memory instead of twice through the lane</td></tr>
 *   <tr><td>jfabric.shm.liveness.timeout.ms</td><td>JFABRIC_SHM_LIVENESS_TIMEOUT_MS</td><td>5000</td>
 *       <td>a peer whose heartbeat (written every 10 ms by each process for its endpoints) is older than this is
 *       taken as stopped: sends to it fail, queued sends that have not reached its ring complete in error</td></tr>
 *   <tr><td>jfabric.shm.checksum</td><td>JFABRIC_SHM_CHECKSUM</td><td>false</td>
 *       <td>every lane record this process writes carries a CRC32C of its header and payload; receivers drop,
 *       count and report a record whose checksum does not match</td></tr>
 *   <tr><td>jfabric.shm.unexpected.count</td><td>JFABRIC_SHM_UNEXPECTED_COUNT</td><td>4096</td>
 *       <td>messages an endpoint keeps that arrived before a receive matched them</td></tr>
 *   <tr><td>jfabric.shm.unexpected.bytes</td><td>JFABRIC_SHM_UNEXPECTED_BYTES</td><td>8388608</td>
 *       <td>payload bytes those messages may hold together (heap, per endpoint, allocated 64 KiB at a time as the
 *       endpoint first needs it)</td></tr>
 *   <tr><td>jfabric.shm.unexpected.preallocate</td><td>JFABRIC_SHM_UNEXPECTED_PREALLOCATE</td><td>false</td>
 *       <td>allocate each endpoint's whole unexpected store at fi_enable, so that the receive path never
 *       allocates</td></tr>
 *   <tr><td>jfabric.shm.progress.idle</td><td>JFABRIC_SHM_PROGRESS_IDLE</td><td>backoff</td>
 *       <td>idle strategy of automatic progress agents: busy (spin), yield, backoff (spin, yield, then park up to
 *       progress.sleep.ns) or sleep (park progress.sleep.ns)</td></tr>
 *   <tr><td>jfabric.shm.progress.agent</td><td>JFABRIC_SHM_PROGRESS_AGENT</td><td>domain</td>
 *       <td>automatic progress: one agent thread per domain, or one per endpoint</td></tr>
 *   <tr><td>jfabric.shm.progress.sleep.ns</td><td>JFABRIC_SHM_PROGRESS_SLEEP_NS</td><td>50000</td>
 *       <td>longest park of an idle progress agent</td></tr>
 * </table>
 * A value that does not parse, or is out of its range, is refused with {@link Errno#FI_EINVAL} naming the
 * setting, rather than silently replaced by the default.
 * <p>
 * Immutable and thread safe.
 */
public final class ShmConfig
{
    /** Property prefix of every setting. */
    public static final String PREFIX = "jfabric.shm.";

    private final Path rootDir;
    private final boolean groupAccess;
    private final int epCount;
    private final int cqCount;
    private final int counterCount;
    private final int mrCount;
    private final int mrIovLimit;
    private final int rxSize;
    private final int txSize;
    private final int cqSize;
    private final int injectSize;
    private final int rxRingBytes;
    private final int txRingBytes;
    private final int cqRingBytes;
    private final long maxMsgSize;
    private final int eqSize;
    private final int maxErrData;
    private final int avMaxCount;
    private final String progressIdle;
    private final String progressAgent;
    private final long progressSleepNs;
    private final int rendezvousMin;
    private final int unexpectedCount;
    private final int unexpectedBytes;
    private final long livenessTimeoutMs;
    private final boolean checksum;
    private final boolean unexpectedPreallocate;

    private ShmConfig(final UnaryOperator<String> lookup)
    {
        rootDir = rootDirSetting(lookup.apply("dir"));
        groupAccess = booleanSetting(lookup, "group.access");
        epCount = intSetting(lookup, "ep.count", 24, 1, 1 << 16);
        cqCount = intSetting(lookup, "cq.count", 24, 1, 1 << 16);
        counterCount = intSetting(lookup, "cntr.count", 128, 1, 1 << 20);
        mrCount = intSetting(lookup, "mr.count", 4096, 1, 1 << 24);
        mrIovLimit = intSetting(lookup, "mr.iov.limit", 8, 1, 1024);
        rxSize = intSetting(lookup, "rx.size", 1024, 1, 1 << 20);
        txSize = intSetting(lookup, "tx.size", 1024, 1, 1 << 20);
        cqSize = intSetting(lookup, "cq.size", 1024, 1, 1 << 24);
        injectSize = byteSetting(lookup, "inject.size", 4096, 0, 1 << 16);
        rxRingBytes = powerOfTwo("rx.ring.bytes", byteSetting(lookup, "rx.ring.bytes", 1 << 16, 1 << 12, 1 << 30));
        txRingBytes = powerOfTwo("tx.ring.bytes", byteSetting(lookup, "tx.ring.bytes", 1 << 18, 1 << 12, 1 << 30));
        cqRingBytes = powerOfTwo("cq.ring.bytes", byteSetting(lookup, "cq.ring.bytes", 1 << 18, 1 << 12, 1 << 30));
        maxMsgSize = sizeSetting(lookup, "max.msg.size", 1L << 30, 1, Long.MAX_VALUE);
        eqSize = intSetting(lookup, "eq.size", 1024, 1, 1 << 24);
        maxErrData = byteSetting(lookup, "max.err.data", 64, 0, 1 << 16);
        avMaxCount = intSetting(lookup, "av.max.count", 1 << 16, 1, 1 << 20);
        progressIdle = choiceSetting(lookup, "progress.idle", "backoff", "busy", "yield", "backoff", "sleep");
        progressAgent = choiceSetting(lookup, "progress.agent", "domain", "domain", "endpoint");
        progressSleepNs = longSetting(lookup, "progress.sleep.ns", 50_000, 1, 1_000_000_000L);
        rendezvousMin = byteSetting(lookup, "rendezvous.min", 2048, 0, Integer.MAX_VALUE);
        unexpectedCount = intSetting(lookup, "unexpected.count", 4096, 0, 1 << 20);
        unexpectedBytes = byteSetting(lookup, "unexpected.bytes", 8 << 20, 0, 1 << 30);
        livenessTimeoutMs = longSetting(lookup, "liveness.timeout.ms", 5_000, 100, 86_400_000L);
        checksum = booleanSetting(lookup, "checksum");
        unexpectedPreallocate = booleanSetting(lookup, "unexpected.preallocate");
    }

    /**
     * @return whether every lane record this process writes carries a CRC32C of its header and payload, which
     * receivers check (off by default; see docs/RELIABILITY.md for what it costs).
     */
    public boolean checksum()
    {
        return checksum;
    }

    /**
     * @return milliseconds after which a peer whose heartbeat has not moved is taken as stopped: sends to it fail
     * with FI_EHOSTUNREACH, and what was queued for it and had not gone into its ring completes in error.
     */
    public long livenessTimeoutMs()
    {
        return livenessTimeoutMs;
    }

    /** @return unexpected messages an endpoint keeps until a receive takes them (count). */
    public int unexpectedCount()
    {
        return unexpectedCount;
    }

    /**
     * @return payload bytes an endpoint's unexpected messages may hold together (allocated as first needed, or at
     * fi_enable with {@link #unexpectedPreallocate()}).
     */
    public int unexpectedBytes()
    {
        return unexpectedBytes;
    }

    /** @return whether each endpoint allocates its whole unexpected store at fi_enable (else as first needed). */
    public boolean unexpectedPreallocate()
    {
        return unexpectedPreallocate;
    }

    /** @return the smallest send from registered shareable memory that goes by rendezvous (the peer copies once). */
    public int rendezvousMin()
    {
        return rendezvousMin;
    }

    /** @return idle strategy of automatic progress agents: busy, yield, backoff or sleep. */
    public String progressIdle()
    {
        return progressIdle;
    }

    /** @return what one automatic progress agent serves: a whole domain or one endpoint. */
    public String progressAgent()
    {
        return progressAgent;
    }

    /** @return nanoseconds an agent with the sleep (or backoff, at most) idle strategy parks when idle. */
    public long progressSleepNs()
    {
        return progressSleepNs;
    }

    /**
     * @return the configuration from system properties and environment variables.
     */
    public static ShmConfig load()
    {
        return new ShmConfig(ShmConfig::systemLookup);
    }

    /**
     * A configuration from explicit settings (keys without the {@link #PREFIX}), for tests and embedding; a
     * setting the lookup does not know (returns null for) takes its default.
     *
     * @param lookup setting name, such as {@code "ep.count"}, to value or null.
     * @return the configuration.
     */
    public static ShmConfig of(final UnaryOperator<String> lookup)
    {
        return new ShmConfig(lookup);
    }

    /** @return root directory of every shared file. */
    public Path rootDir()
    {
        return rootDir;
    }

    /** @return true when the root is shared with its group: files 0660 of the root's group, see the table above. */
    public boolean groupAccess()
    {
        return groupAccess;
    }

    /** @return endpoint slots per domain region. */
    public int epCount()
    {
        return epCount;
    }

    /** @return completion queues per domain. */
    public int cqCount()
    {
        return cqCount;
    }

    /** @return counters per domain. */
    public int counterCount()
    {
        return counterCount;
    }

    /** @return memory regions per domain. */
    public int mrCount()
    {
        return mrCount;
    }

    /** @return iov entries per registration. */
    public int mrIovLimit()
    {
        return mrIovLimit;
    }

    /** @return receive context depth. */
    public int rxSize()
    {
        return rxSize;
    }

    /** @return transmit context depth. */
    public int txSize()
    {
        return txSize;
    }

    /** @return default and largest CQ depth. */
    public int cqSize()
    {
        return cqSize;
    }

    /** @return the largest inject. */
    public int injectSize()
    {
        return injectSize;
    }

    /** @return bytes of each receive ring. */
    public int rxRingBytes()
    {
        return rxRingBytes;
    }

    /** @return bytes of each transmit-context ring. */
    public int txRingBytes()
    {
        return txRingBytes;
    }

    /** @return bytes of each completion ring. */
    public int cqRingBytes()
    {
        return cqRingBytes;
    }

    /** @return the largest message. */
    public long maxMsgSize()
    {
        return maxMsgSize;
    }

    /** @return default and largest EQ depth. */
    public int eqSize()
    {
        return eqSize;
    }

    /** @return the most bytes of error data a completion carries. */
    public int maxErrData()
    {
        return maxErrData;
    }

    /** @return the largest count an address vector may be opened with. */
    public int avMaxCount()
    {
        return avMaxCount;
    }

    private static String systemLookup(final String key)
    {
        final String property = System.getProperty(PREFIX + key);
        if (property != null)
        {
            return property;
        }
        return System.getenv("JFABRIC_SHM_" + key.replace('.', '_').toUpperCase(Locale.ROOT));
    }

    private static Path rootDirSetting(final String dir)
    {
        if (dir == null || dir.isBlank())
        {
            return defaultRootDir();
        }
        final Path path = Path.of(dir.trim());
        if (!path.isAbsolute())
        {
            throw new FabricException(Errno.FI_EINVAL, "shm config " + PREFIX + "dir='" + dir + "' is not an absolute " +
                "path; a relative one would name a different directory in processes started elsewhere");
        }
        return path.normalize();
    }

    private static boolean booleanSetting(final UnaryOperator<String> lookup, final String key)
    {
        final String text = lookup.apply(key);
        if (text == null || text.isBlank())
        {
            return false;
        }
        final String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("true"))
        {
            return true;
        }
        if (t.equals("false"))
        {
            return false;
        }
        throw new FabricException(Errno.FI_EINVAL, "shm config " + PREFIX + key + "='" + text + "' is not true or false");
    }

    private static Path defaultRootDir()
    {
        final String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        final Path shm = Path.of("/dev/shm");
        final Path base = Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        return base.resolve("jfabric-" + user);
    }

    private static int intSetting(
        final UnaryOperator<String> lookup, final String key, final int dflt, final int min, final int max)
    {
        return (int)longSetting(lookup, key, dflt, min, max);
    }

    private static long longSetting(
        final UnaryOperator<String> lookup, final String key, final long dflt, final long min, final long max)
    {
        return setting(lookup, key, dflt, min, max, false);
    }

    /** A byte count that fits an int, in bytes or with k, m or g (KiB, MiB, GiB), as the tools take sizes. */
    private static int byteSetting(
        final UnaryOperator<String> lookup, final String key, final int dflt, final int min, final int max)
    {
        return (int)setting(lookup, key, dflt, min, max, true);
    }

    /** A byte count, in bytes or with k, m or g (KiB, MiB, GiB). */
    private static long sizeSetting(
        final UnaryOperator<String> lookup, final String key, final long dflt, final long min, final long max)
    {
        return setting(lookup, key, dflt, min, max, true);
    }

    private static long setting(
        final UnaryOperator<String> lookup, final String key, final long dflt, final long min, final long max,
        final boolean size)
    {
        final String text = lookup.apply(key);
        if (text == null || text.isBlank())
        {
            return dflt;
        }
        final long value;
        try
        {
            final String t = text.trim();
            value = size && !Character.isDigit(t.charAt(t.length() - 1)) ? SystemUtil.parseSize(PREFIX + key, t) :
                Long.parseLong(t); // a plain number, negative ones too, so that the range check names it
        }
        catch (final NumberFormatException ex)
        {
            throw new FabricException(Errno.FI_EINVAL, "shm config " + PREFIX + key + "='" + text + "' is not " +
                (size ? "a size (bytes, or with k, m or g for KiB, MiB or GiB, such as 64k)" : "a number"));
        }
        if (value < min || value > max)
        {
            throw new FabricException(Errno.FI_EINVAL,
                "shm config " + PREFIX + key + "=" + value + " is outside [" + min + ", " + max + "]");
        }
        return value;
    }

    private static String choiceSetting(
        final UnaryOperator<String> lookup, final String key, final String dflt, final String... choices)
    {
        final String text = lookup.apply(key);
        if (text == null || text.isBlank())
        {
            return dflt;
        }
        final String t = text.trim().toLowerCase(Locale.ROOT);
        for (final String c : choices)
        {
            if (c.equals(t))
            {
                return c;
            }
        }
        throw new FabricException(Errno.FI_EINVAL, "shm config " + PREFIX + key + "='" + text + "' is not one of " +
            String.join(", ", choices));
    }

    private static int powerOfTwo(final String key, final int value)
    {
        if (Integer.bitCount(value) != 1)
        {
            throw new FabricException(Errno.FI_EINVAL, "shm config " + PREFIX + key + "=" + value + " is not a power of two");
        }
        return value;
    }
}
