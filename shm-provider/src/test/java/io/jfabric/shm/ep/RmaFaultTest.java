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
import io.jfabric.AtomicDatatype;
import io.jfabric.AtomicOp;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Fabric;
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

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * RMA and atomics that go wrong, between real JVMs: the target ({@link RmaFaultPeerMain}) registers regions, each
 * over its own segment; this JVM reads, writes and fetch-adds into them one-sidedly while the target's regions are
 * refused by authorization key, closed under a stream of operations, or while the target is SIGKILLed or
 * SIGSTOPped. What every case asserts: each call either is refused at once with a documented errno (nothing moved, no
 * completion) or returns 0 and gets exactly one completion, success or an error entry with a documented errno,
 * within 30 s (no hang); no call throws; the bytes of the target's other regions are untouched; and this JVM can
 * close everything afterwards.
 * <ul>
 *   <li>Authorization keys (docs/USING.md "Authorization keys"): a region carries its MrAttr auth_key, else its
 *   domain's; a one-sided access presents the initiator's <em>domain</em> key and completes in error with
 *   FI_EACCES when it differs, leaving the target's bytes and the local buffers untouched; the same endpoint
 *   reaches a region registered under its key. An endpoint's own ep_attr.auth_key does not count for one-sided
 *   access (it is what writedata's lane check presents to the target endpoint), as the docs say; fi_mr(3) speaks of
 *   "peer endpoints programmed with the same key", so this pins jfabric's documented reading.</li>
 *   <li>A region closed during a stream (docs/USING.md "Memory registration and counters"): each operation
 *   completes successfully or in error with FI_EKEYREJECTED, never succeeds once one failed, and every one started
 *   after the close returned fails; a write or fetch-add that raced the close may have landed (the target bytes are
 *   then undefined), at most that one.</li>
 *   <li>The target SIGKILLed during a stream: operations already resolved against the still-published key table
 *   entry may succeed into the dead owner's segment (the initiator's mapping stays valid) until the sender's
 *   liveness check, rechecked every {@link io.jfabric.shm.liveness.PeerLiveness#RECHECK_MS} ms, finds the process gone; from then on every
 *   call is refused with -FI_EHOSTUNREACH and none succeeds again.</li>
 *   <li>The target SIGSTOPped during a stream: one-sided operations need no target CPU and keep succeeding, with
 *   the right bytes, until the target's heartbeat is older than the liveness timeout; then calls are refused with
 *   -FI_EHOSTUNREACH (docs/USING.md, jfabric.shm.liveness.timeout.ms); after SIGCONT they succeed again.</li>
 * </ul>
 */
class RmaFaultTest
{
    private static final String DOMAIN = "rmafault";
    /** The liveness timeout of this JVM's domains: how long a stopped target's heartbeat may be old. */
    private static final long LIVENESS_MS = 2_000;
    /** Bytes each write and read moves: [0, DATA) of a region; the fetch-add counter is the word at DATA. */
    private static final int DATA = 4096;
    private static final int REGION = 2 * DATA;
    private static final long COMPLETION_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final String OK = "OK";
    private static final String REFUSED_UNREACH = "REFUSED_FI_EHOSTUNREACH";
    private static final String ERR_KEYREJECTED = "ERR_FI_EKEYREJECTED";

    private final OpenedObjects opened = new OpenedObjects();
    private final List<ChildJvm> children = new ArrayList<>();
    private final List<Stream> streams = new ArrayList<>();
    private ShmTestRoot root;
    private ShmProvider provider;

    @BeforeEach
    void open()
    {
        root = new ShmTestRoot();
        provider = root.provider(key -> "liveness.timeout.ms".equals(key) ? Long.toString(LIVENESS_MS) : null);
    }

    @AfterEach
    void close() throws Exception
    {
        try
        {
            for (final Stream s : streams)
            {
                s.stopAndJoin();
            }
            for (final ChildJvm child : children)
            {
                if (ProcessHandle.of(child.pid()).map(ProcessHandle::isAlive).orElse(false))
                {
                    child.resume(); // harmless on a running child
                }
                child.kill();
            }
        }
        finally
        {
            opened.close();
            root.close();
        }
    }

    // ------------------------------------------------------------------ 1. authorization keys

    /**
     * The target's domain key is "alpha"; region DOM carries its domain's key, region BETA its own MrAttr auth_key
     * "beta". Initiators: a domain keyed "beta" and one without a key present another key than DOM's, so every
     * write, read, fetch-add, atomic and inject_write on DOM completes in error with FI_EACCES and nothing of the
     * target or the local buffers changes; writedata is refused by the call (-FI_EACCES): the target endpoint does
     * not accept their key. Then the "alpha" initiator reaches DOM, and the very "beta" endpoint that was refused
     * reaches BETA, with the right bytes. An endpoint keyed "alpha" (ep_attr.auth_key) in a domain keyed "beta"
     * presents alpha, the key its messages use (issue 27): it reaches DOM, by write and writedata, and not BETA.
     */
    @Test
    void shouldCompleteOneSidedAccessWithAnotherAuthKeyInErrorAndLeaveTheTargetUntouched() throws Exception
    {
        final ChildJvm target = child("key=alpha");
        final String address = target.awaitResult(60).get("addr");
        final Region dom = register(target, 201, null);
        final Region beta = register(target, 202, "beta");
        fill(target, dom, 0x11);
        fill(target, beta, 0x22);
        final long domCrc = crcAtTarget(target, dom, 0, REGION);
        final long betaCrc = crcAtTarget(target, beta, 0, REGION);

        final Side alphaSide = side("alpha", null, address);
        final Side betaSide = side("beta", null, address);
        final Side noneSide = side(null, null, address);
        final Side betaDomainAlphaEp = side("beta", "alpha", address);

        for (final Side wrong : new Side[] {betaSide, noneSide})
        {
            final String who = wrong.name + " on DOM";
            assertEquals(-Errno.FI_EACCES, wrong.writeAndComplete(dom, 0x77), who + ": write");
            assertEquals(-Errno.FI_EACCES, wrong.readAndComplete(dom), who + ": read");
            assertTrue(wrong.inUntouched(), who + ": a failed read leaves the local buffer as it was");
            assertEquals(-Errno.FI_EACCES, wrong.fetchAddAndComplete(dom, 5), who + ": fetch-add");
            assertEquals(-1L, wrong.result.getLong(0), who + ": a failed fetch-add leaves the result buffer");
            assertEquals(-Errno.FI_EACCES, wrong.atomicAddAndComplete(dom, 5), who + ": atomic add");
            wrong.fillOut(0x78);
            assertEquals(0, wrong.ep.injectWrite(wrong.out, 0, 64, wrong.dest, dom.base, dom.key), who + ": inject");
            assertEquals(-Errno.FI_EACCES, wrong.complete(-1), who + ": inject_write's error entry");
        }
        assertEquals(-Errno.FI_EACCES, betaSide.ep.writedata(betaSide.out, 0, 64, 0, 9, betaSide.dest, dom.base,
            dom.key, 90), "writedata: the target endpoint does not accept the key, so the call is refused");
        assertEquals(-Errno.FI_EACCES, noneSide.ep.writedata(noneSide.out, 0, 64, 0, 9, noneSide.dest, dom.base,
            dom.key, 91), "writedata without a key");
        assertEquals(domCrc, crcAtTarget(target, dom, 0, REGION), "DOM is untouched by every refused access");
        assertEquals(betaCrc, crcAtTarget(target, beta, 0, REGION), "so is BETA");
        target.tell("cq 300");
        assertEquals("0", target.awaitResult(30).get("count"), "the target's CQ got nothing from a failed writedata");

        assertEquals(-Errno.FI_EACCES, alphaSide.writeAndComplete(beta, 0x55), "alpha on BETA, keyed beta");
        assertEquals(betaCrc, crcAtTarget(target, beta, 0, REGION), "BETA untouched");

        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, alphaSide.writeAndComplete(dom, 0x33), "alpha on DOM: write");
        assertEquals(crc(0x33, DATA), crcAtTarget(target, dom, 0, DATA), "the write landed");
        assertEquals(Flags.FI_RMA | Flags.FI_READ, alphaSide.readAndComplete(dom), "alpha on DOM: read");
        assertTrue(alphaSide.inHolds(0x33), "read back what was written");
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, alphaSide.fetchAddAndComplete(dom, 5), "alpha: fetch-add");
        assertEquals(0x1111_1111_1111_1111L, alphaSide.result.getLong(0), "the counter word before the add");
        assertEquals(0x1111_1111_1111_1111L + 5, wordAtTarget(target, dom, DATA));

        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, betaSide.writeAndComplete(beta, 0x44),
            "the endpoint refused on DOM writes BETA, registered under its domain's key");
        assertEquals(crc(0x44, DATA), crcAtTarget(target, beta, 0, DATA));
        assertEquals(Flags.FI_RMA | Flags.FI_READ, betaSide.readAndComplete(beta));
        assertTrue(betaSide.inHolds(0x44));
        assertEquals(Flags.FI_ATOMIC | Flags.FI_READ, betaSide.fetchAddAndComplete(beta, 1));
        assertEquals(0x2222_2222_2222_2222L, betaSide.result.getLong(0));
        assertEquals(-Errno.FI_EACCES, betaSide.ep.writedata(betaSide.out, 0, 64, 0, 9, betaSide.dest, beta.base,
            beta.key, 93), "writedata to BETA is still refused: it needs the target endpoint to accept the key");
        assertEquals(-Errno.FI_EACCES, betaDomainAlphaEp.writeAndComplete(beta, 0x66),
            "its domain key beta does not open BETA: one-sided access presents its endpoint's key");
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, betaDomainAlphaEp.writeAndComplete(dom, 0x66),
            "while its endpoint key alpha opens DOM");
        assertEquals(0, betaDomainAlphaEp.ep.writedata(betaDomainAlphaEp.out, 0, 64, 0, 9, betaDomainAlphaEp.dest,
            dom.base, dom.key, 92), "the target endpoint accepts the endpoint's key alpha: the call is taken");
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, betaDomainAlphaEp.complete(92), "and the copy presents alpha too");

        target.tell("exit");
        target.awaitSuccess(30);
    }

    // ------------------------------------------------------------------ 2. region closed during a stream

    /**
     * Three streams, one after the other, each on a region of its own that the target closes (fi_close of the MR,
     * its memory kept) while the stream runs: writes, reads, fetch-adds. A fourth region, KEEP, stays registered
     * throughout: its bytes are unchanged and it still works after. Finally the memory of a closed region is freed
     * (its segment file deleted): writes to its key still fail with FI_EKEYREJECTED.
     */
    @Test
    void shouldFailEveryOperationWithKeyRejectedOnceTheRegionIsClosedMidStream() throws Exception
    {
        final ChildJvm target = child("none");
        final String address = target.awaitResult(60).get("addr");
        final Region keep = register(target, 304, null);
        fill(target, keep, 0x3C);
        final long keepCrc = crcAtTarget(target, keep, 0, REGION);
        final Side side = side(null, null, address);
        final Kind[] kinds = {Kind.WRITE, Kind.READ, Kind.FETCH_ADD};
        final Region[] closing = new Region[kinds.length];
        for (int k = 0; k < kinds.length; k++)
        {
            closing[k] = register(target, 301 + k, null);
            final int fillByte = kinds[k] == Kind.READ ? 0x5A : 0;
            fill(target, closing[k], fillByte);
            final Stream s = stream(side, closing[k], new Kind[] {kinds[k]}, fillByte, Set.of(),
                Set.of(Errno.FI_EKEYREJECTED), "running", "closing", "closed");
            s.awaitOps(0, 500, 30);
            s.phase = 1;
            target.tell("close-mr " + closing[k].key);
            assertEquals(Long.toString(closing[k].key), target.awaitResult(30).get("closed"));
            s.phase = 2;
            s.awaitOps(2, 300, 30);
            s.stopAndJoin();
            final String report = s.report();
            System.out.println("RmaFaultTest close " + kinds[k] + ": " + report);
            s.assertNoProblems();
            assertEquals(OK, s.outcomes(0).get(0), "before the close: " + report);
            assertEquals(List.of(ERR_KEYREJECTED), s.outcomes(2), "after the close returned: " + report);
            s.assertNeverAfter(ERR_KEYREJECTED, OK, 0, 2);
            s.assertOnly(Set.of(OK, ERR_KEYREJECTED), 0, 2);
            switch (kinds[k])
            {
                case WRITE:
                    final long landed = crcAtTarget(target, closing[k], 0, DATA);
                    assertTrue(landed == crc(s.lastOkWrite, DATA) ||
                        s.firstFailedWrite >= 0 && landed == crc(s.firstFailedWrite, DATA),
                        "the region holds the last successful write, or the one that raced the close: " + report);
                    break;
                case FETCH_ADD:
                    final long word = wordAtTarget(target, closing[k], DATA);
                    assertTrue(word == s.okFetchAdds || word == s.okFetchAdds + 1,
                        "the counter counts the successful fetch-adds, plus at most the one that raced the close: " +
                        word + " after " + s.okFetchAdds + "; " + report);
                    break;
                default:
                    assertEquals(crc(0x5A, REGION), crcAtTarget(target, closing[k], 0, REGION), "reads change nothing");
            }
        }
        assertEquals(keepCrc, crcAtTarget(target, keep, 0, REGION), "the region that stayed registered is untouched");
        assertEquals(Flags.FI_RMA | Flags.FI_WRITE, side.writeAndComplete(keep, 0x4D), "and still works");
        assertEquals(Flags.FI_RMA | Flags.FI_READ, side.readAndComplete(keep));
        assertTrue(side.inHolds(0x4D));
        assertEquals(crc(0x4D, DATA), crcAtTarget(target, keep, 0, DATA));

        target.tell("free " + closing[0].key);
        assertEquals(Long.toString(closing[0].key), target.awaitResult(30).get("freed"));
        assertEquals(-Errno.FI_EKEYREJECTED, side.writeAndComplete(closing[0], 0x10), "its memory freed as well");
        assertEquals(-Errno.FI_EKEYREJECTED, side.fetchAddAndComplete(closing[2], 1), "closed, memory kept");
        target.tell("exit");
        target.awaitSuccess(30);
    }

    // ------------------------------------------------------------------ 3. owner killed during a stream

    /**
     * A stream of writes, reads and fetch-adds (in turn) to the target's region; the target is SIGKILLed. Each call
     * is taken (0, then one completion within 30 s, success or FI_EKEYREJECTED) or refused with -FI_EHOSTUNREACH.
     * Once one call was refused, every later one is (the owner is known dead: nothing succeeds into its region
     * again), and the first refusal comes within 10 s of the kill (the sender rechecks a peer every
     * {@link io.jfabric.shm.liveness.PeerLiveness#RECHECK_MS} ms). Successes between the kill and that refusal are allowed (the key table
     * entry is still published and the initiator's mapping of the dead owner's segment stays valid); the test
     * prints how many there were. Reads in the stream see the last successful write, before and after the kill.
     * Then this JVM closes endpoint, CQ, AV, domain and fabric without an error.
     */
    @Test
    void shouldRefuseEveryOperationOnceTheKilledOwnerIsFoundGoneAndCloseCleanly() throws Exception
    {
        final ChildJvm target = child("none");
        final String address = target.awaitResult(60).get("addr");
        final Region region = register(target, 401, null);
        fill(target, region, 0);
        final Side side = side(null, null, address);
        final Stream s = stream(side, region, new Kind[] {Kind.WRITE, Kind.READ, Kind.FETCH_ADD}, 0,
            Set.of(-(long)Errno.FI_EHOSTUNREACH), Set.of(Errno.FI_EKEYREJECTED), "running", "killing", "killed");
        s.awaitOps(0, 600, 30);
        s.phase = 1;
        target.kill();
        s.phase = 2;
        final long killedAt = System.nanoTime();
        s.awaitOutcome(REFUSED_UNREACH, 30);
        final long refusedAfterMs = TimeUnit.NANOSECONDS.toMillis(s.firstStart(REFUSED_UNREACH) - killedAt);
        s.awaitOps(2, s.ops(2) + 300, 30);
        s.stopAndJoin();
        final String report = s.report();
        System.out.println("RmaFaultTest kill: first refusal " + refusedAfterMs + " ms after the kill returned; " +
            report);
        s.assertNoProblems();
        assertEquals(OK, s.outcomes(0).get(0), "before the kill: " + report);
        s.assertNeverAfter(REFUSED_UNREACH, OK, 0, 2);
        s.assertNeverAfter(REFUSED_UNREACH, ERR_KEYREJECTED, 0, 2);
        s.assertOnly(Set.of(OK, REFUSED_UNREACH, ERR_KEYREJECTED), 0, 2);
        final List<String> after = s.outcomes(2);
        assertEquals(REFUSED_UNREACH, after.get(after.size() - 1), "in the end every call is refused: " + report);
        assertTrue(refusedAfterMs < 10_000, "found gone within 10 s of the kill: " + refusedAfterMs + " ms");

        for (final AutoCloseable c : new AutoCloseable[] {side.ep, side.cq, side.av, side.domain, side.fabric})
        {
            c.close(); // a failure here throws: the test fails with it
        }
    }

    // ------------------------------------------------------------------ 4. owner stopped during a stream

    /**
     * A stream of writes, reads and fetch-adds (in turn) to the target's region; the target is SIGSTOPped (and its
     * state checked as stopped in /proc), later SIGCONTed. While it is stopped, one-sided operations go on
     * succeeding, reads seeing the writes; once its heartbeat is older than the liveness timeout (2 s here) calls
     * are refused with -FI_EHOSTUNREACH, not before half of it, and none succeeds again until it resumes; after
     * SIGCONT calls are taken again and all succeed. No error completion at all: the region never changes.
     */
    @Test
    void shouldKeepSucceedingWhileTheTargetIsStoppedUntilTheLivenessTimeoutThenAgainAfterItResumes()
        throws Exception
    {
        final ChildJvm target = child("none");
        final String address = target.awaitResult(60).get("addr");
        final Region region = register(target, 501, null);
        fill(target, region, 0);
        final Side side = side(null, null, address);
        final Stream s = stream(side, region, new Kind[] {Kind.WRITE, Kind.READ, Kind.FETCH_ADD}, 0,
            Set.of(-(long)Errno.FI_EHOSTUNREACH), Set.of(), "running", "stopping", "stopped", "resuming", "resumed");
        s.awaitOps(0, 600, 30);
        s.phase = 1;
        final long stopping = System.nanoTime();
        target.stop();
        awaitState(target.pid(), 'T');
        s.phase = 2;
        s.awaitOutcome(REFUSED_UNREACH, 30);
        final long refusedAfterMs = TimeUnit.NANOSECONDS.toMillis(s.firstStart(REFUSED_UNREACH) - stopping);
        s.awaitOps(2, s.ops(2) + 200, 30);
        s.phase = 3;
        final long resuming = System.nanoTime();
        target.resume();
        s.phase = 4;
        s.awaitOutcomeIn(4, OK, 30);
        final long okAgainMs = TimeUnit.NANOSECONDS.toMillis(s.firstStartIn(4, OK) - resuming);
        s.awaitOps(4, s.ops(4) + 600, 30);
        s.stopAndJoin();
        final String report = s.report();
        System.out.println("RmaFaultTest stop: first refusal " + refusedAfterMs + " ms after SIGSTOP, first success " +
            okAgainMs + " ms after SIGCONT; " + report);
        s.assertNoProblems();
        assertEquals(OK, s.outcomes(0).get(0), "before the stop: " + report);
        assertEquals(OK, s.outcomes(2).get(0), "stopped, the target's memory still takes one-sided operations: " +
            report);
        s.assertNeverAfter(REFUSED_UNREACH, OK, 0, 2);
        s.assertOnly(Set.of(OK, REFUSED_UNREACH), 0, 4);
        assertTrue(refusedAfterMs >= LIVENESS_MS / 2 && refusedAfterMs < LIVENESS_MS + 10_000,
            "refused only once the heartbeat is older than the liveness timeout: " + refusedAfterMs + " ms");
        s.assertNeverAfter(OK, REFUSED_UNREACH, 4, 4);
        final List<String> resumed = s.outcomes(4);
        assertEquals(OK, resumed.get(resumed.size() - 1), "after SIGCONT every call succeeds again: " + report);
        assertEquals(crc(s.lastOkWrite, DATA), crcAtTarget(target, region, 0, DATA), "the last write is there");
        assertEquals(s.okFetchAdds, wordAtTarget(target, region, DATA), "every successful fetch-add, no other");
        target.tell("exit");
        target.awaitSuccess(30);
    }

    // ------------------------------------------------------------------ the target

    /** A region of the target: its key and the address a peer names its first byte by. */
    private static final class Region
    {
        final long key;
        final long base;

        Region(final long key, final long base)
        {
            this.key = key;
            this.base = base;
        }
    }

    private ChildJvm child(final String keyMode) throws Exception
    {
        final ChildJvm child = ChildJvm.start(RmaFaultPeerMain.class, List.of("jfabric.shm.dir=" + root.dir(),
            "jfabric.shm.liveness.timeout.ms=" + LIVENESS_MS), DOMAIN, keyMode);
        children.add(child);
        return child;
    }

    private static Region register(final ChildJvm target, final long key, final String authKey) throws Exception
    {
        target.tell("reg " + key + " " + REGION + (authKey != null ? " " + authKey : ""));
        final Map<String, String> r = target.awaitResult(30);
        return new Region(Long.parseLong(r.get("key")), Long.parseLong(r.get("base")));
    }

    private static void fill(final ChildJvm target, final Region region, final int value) throws Exception
    {
        target.tell("fill " + region.key + " " + value);
        target.awaitResult(30);
    }

    private static long crcAtTarget(final ChildJvm target, final Region region, final int offset, final int length)
        throws Exception
    {
        target.tell("crc " + region.key + " " + offset + " " + length);
        return Long.parseLong(target.awaitResult(30).get("crc"));
    }

    private static long wordAtTarget(final ChildJvm target, final Region region, final int offset) throws Exception
    {
        target.tell("word " + region.key + " " + offset);
        return Long.parseLong(target.awaitResult(30).get("word"));
    }

    private static long crc(final int value, final int length)
    {
        final byte[] bytes = new byte[length];
        java.util.Arrays.fill(bytes, (byte)value);
        final CRC32C c = new CRC32C();
        c.update(bytes);
        return c.getValue();
    }

    /** Wait until /proc says the process is in {@code state} (T: stopped), up to 10 s. */
    private static void awaitState(final long pid, final char state) throws Exception
    {
        final Path stat = Path.of("/proc", Long.toString(pid), "stat");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String line = "";
        while (System.nanoTime() < deadline)
        {
            line = Files.readString(stat);
            if (line.charAt(line.lastIndexOf(')') + 2) == state)
            {
                return;
            }
            Thread.sleep(5);
        }
        fail("process " + pid + " not in state " + state + " within 10 s: " + line);
    }

    // ------------------------------------------------------------------ the initiator

    /** One initiator: its own fabric, domain (with a key or none), AV, CQ and endpoint, the target inserted. */
    private Side side(final String domainKey, final String endpointKey, final String targetAddress)
    {
        final Info hints = new Info();
        hints.caps(Flags.FI_MSG | Flags.FI_RMA | Flags.FI_ATOMIC);
        hints.domainAttr().name(DOMAIN);
        if (domainKey != null)
        {
            hints.domainAttr().authKey(domainKey.getBytes(StandardCharsets.US_ASCII));
        }
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        if (endpointKey != null)
        {
            info.epAttr().authKey(endpointKey.getBytes(StandardCharsets.US_ASCII));
        }
        final Side s = new Side("domain key " + domainKey + (endpointKey != null ? ", ep key " + endpointKey : ""));
        s.fabric = opened.keep(provider.fabric(info.fabricAttr(), 0));
        s.domain = opened.keep(s.fabric.domain(info, 0));
        s.av = opened.keep(s.domain.avOpen(new AvAttr(), 0));
        s.cq = opened.keep(s.domain.cqOpen(new CqAttr().format(CqFormat.DATA), 0));
        s.ep = opened.keep(s.domain.endpoint(info, 0));
        s.ep.bind(s.av, 0);
        s.ep.bind(s.cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        s.ep.enable();
        final long[] out = new long[1];
        assertEquals(1, s.av.insert(new String[] {targetAddress}, 1, out, 0, 0));
        s.dest = out[0];
        return s;
    }

    /** What a stream does, in turn. */
    enum Kind
    {
        /** fi_write of DATA bytes, all one value, at the region's start. */
        WRITE,
        /** fi_read of DATA bytes from the region's start. */
        READ,
        /** fi_fetch_atomic FI_SUM of 1 on the uint64 at DATA. */
        FETCH_ADD
    }

    /** An initiator's objects and buffers; one thread at a time. */
    private static final class Side
    {
        final String name;
        final ByteBuffer out = ByteBuffer.allocateDirect(DATA);
        final ByteBuffer in = ByteBuffer.allocateDirect(DATA);
        final ByteBuffer operand = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
        final ByteBuffer result = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
        final CqEntries entries = new CqEntries(1);
        final CqErrEntry err = new CqErrEntry();
        Fabric fabric;
        Domain domain;
        AddressVector av;
        CompletionQueue cq;
        Endpoint ep;
        long dest;
        long context;

        Side(final String name)
        {
            this.name = name;
        }

        void fillOut(final int value)
        {
            for (int i = 0; i < DATA; i += 8)
            {
                out.putLong(i, (value & 0xFFL) * 0x0101_0101_0101_0101L);
            }
        }

        long write(final Region r, final int value, final long ctx)
        {
            fillOut(value);
            return ep.write(out, 0, DATA, 0, dest, r.base, r.key, ctx);
        }

        long read(final Region r, final long ctx)
        {
            for (int i = 0; i < DATA; i += 8)
            {
                in.putLong(i, 0x0F0F_0F0F_0F0F_0F0FL); // a value no region is filled or written with
            }
            return ep.read(in, 0, DATA, 0, dest, r.base, r.key, ctx);
        }

        long fetchAdd(final Region r, final long add, final long ctx)
        {
            operand.putLong(0, add);
            result.putLong(0, -1L);
            return ep.fetchAtomic(operand, 0, 1, 0, result, 0, 0, dest, r.base + DATA, r.key, AtomicDatatype.UINT64,
                AtomicOp.SUM, ctx);
        }

        boolean inHolds(final int value)
        {
            final long word = (value & 0xFFL) * 0x0101_0101_0101_0101L;
            for (int i = 0; i < DATA; i += 8)
            {
                if (in.getLong(i) != word)
                {
                    return false;
                }
            }
            return true;
        }

        boolean inUntouched()
        {
            return inHolds(0x0F);
        }

        long writeAndComplete(final Region r, final int value)
        {
            final long ctx = ++context;
            assertEquals(0, write(r, value, ctx), name + ": write call");
            return complete(ctx);
        }

        long readAndComplete(final Region r)
        {
            final long ctx = ++context;
            assertEquals(0, read(r, ctx), name + ": read call");
            return complete(ctx);
        }

        long fetchAddAndComplete(final Region r, final long add)
        {
            final long ctx = ++context;
            assertEquals(0, fetchAdd(r, add, ctx), name + ": fetch-add call");
            return complete(ctx);
        }

        long atomicAddAndComplete(final Region r, final long add)
        {
            final long ctx = ++context;
            operand.putLong(0, add);
            assertEquals(0, ep.atomic(operand, 0, 1, 0, dest, r.base + DATA, r.key, AtomicDatatype.UINT64,
                AtomicOp.SUM, ctx), name + ": atomic call");
            return complete(ctx);
        }

        /**
         * @param ctx the context the completion must carry, or -1 for any (an inject's error entry).
         * @return the flags of the next completion, or the negated errno of an error entry.
         * @throws AssertionError when none comes within 30 s, or it carries another context.
         */
        long complete(final long ctx)
        {
            final long c = poll();
            if (c == Long.MIN_VALUE)
            {
                throw new AssertionError(name + ": no completion within 30 s");
            }
            final long seen = c < 0 ? err.opContext : entries.opContext[0];
            if (ctx != -1 && seen != ctx)
            {
                throw new AssertionError(name + ": completion of context " + seen + ", expected " + ctx);
            }
            return c;
        }

        /** @return flags, or -errno of an error entry, or Long.MIN_VALUE after 30 s with neither. */
        long poll()
        {
            final long deadline = System.nanoTime() + COMPLETION_TIMEOUT_NS;
            long spins = 0;
            while (true)
            {
                final int n = cq.read(entries, 1);
                if (n == 1)
                {
                    return entries.flags[0];
                }
                if (n == -Errno.FI_EAVAIL)
                {
                    if (cq.readErr(err, 0) != 1)
                    {
                        throw new AssertionError(name + ": FI_EAVAIL but no error entry");
                    }
                    return -err.err;
                }
                if (n != -Errno.FI_EAGAIN)
                {
                    throw new AssertionError(name + ": fi_cq_read returned " + n);
                }
                if ((++spins & 1023) == 0)
                {
                    if (System.nanoTime() > deadline)
                    {
                        return Long.MIN_VALUE;
                    }
                    Thread.yield();
                }
            }
        }
    }

    // ------------------------------------------------------------------ the stream

    private Stream stream(
        final Side side, final Region region, final Kind[] kinds, final int fillByte, final Set<Long> refusals,
        final Set<Integer> errors, final String... phases)
    {
        final Stream s = new Stream(side, region, kinds, fillByte, refusals, errors, phases);
        streams.add(s);
        s.thread.start();
        return s;
    }

    /** A run of equal outcomes, in the order the operations were started. */
    private static final class Run
    {
        final String outcome;
        final long firstStart;
        long count;

        Run(final String outcome, final long firstStart)
        {
            this.outcome = outcome;
            this.firstStart = firstStart;
        }

        @Override
        public String toString()
        {
            return outcome + "x" + count;
        }
    }

    /**
     * Operations one after the other on a thread of their own, each waited for (its completion within 30 s) before
     * the next: kinds in turn, writes of value (op % 251) + 1, reads checked against the last successful write,
     * fetch-adds checked to return the count of successful ones before. Each operation is tagged with the phase the
     * test had set when it started; per phase the outcomes are kept as runs (OK, ERR_&lt;errno&gt; for an error
     * completion, REFUSED_&lt;errno&gt; for a call that returned one). The tag is read before the call, so an
     * operation tagged with the first phase may still run after the fault; one that also ended before the test left
     * the first phase must succeed. Anything else (another errno, wrong flags, wrong bytes, a missing completion, an
     * exception) is a problem.
     */
    private static final class Stream implements Runnable
    {
        private static final int MAX_RUNS = 64;
        private static final int MAX_PROBLEMS = 20;

        final Thread thread;
        volatile int phase;
        private volatile boolean stop;
        private final Side side;
        private final Region region;
        private final Kind[] kinds;
        private final Set<Long> refusals;
        private final Set<Integer> errors;
        private final String[] phases;
        private final List<List<Run>> runs = new ArrayList<>();
        private final long[] ops;
        private final Map<String, Long> tally = new TreeMap<>();
        private final List<String> problems = new ArrayList<>();
        private int problemCount;
        private Throwable thrown;
        // stream thread only until joined
        int lastOkWrite;
        int firstFailedWrite = -1;
        private boolean dataUndefined;
        long okFetchAdds;

        Stream(
            final Side side, final Region region, final Kind[] kinds, final int fillByte, final Set<Long> refusals,
            final Set<Integer> errors, final String... phases)
        {
            this.side = side;
            this.region = region;
            this.kinds = kinds;
            this.refusals = refusals;
            this.errors = errors;
            this.phases = phases;
            this.lastOkWrite = fillByte;
            this.ops = new long[phases.length];
            for (int i = 0; i < phases.length; i++)
            {
                runs.add(new ArrayList<>());
            }
            thread = new Thread(this, "rma-fault-stream");
            thread.setDaemon(true);
        }

        @Override
        public void run()
        {
            try
            {
                for (long i = 0; !stop; i++)
                {
                    final int p = phase;
                    final long start = System.nanoTime();
                    final String outcome = one(kinds[(int)(i % kinds.length)], i);
                    if (p == 0 && phase == 0 && !OK.equals(outcome))
                    {
                        problem("op " + i + ": " + outcome + " though started and ended before the fault");
                    }
                    record(p, kinds[(int)(i % kinds.length)], outcome, start);
                    if (outcome.startsWith("HANG"))
                    {
                        return;
                    }
                }
            }
            catch (final Throwable t)
            {
                synchronized (this)
                {
                    thrown = t;
                }
            }
        }

        private String one(final Kind kind, final long i)
        {
            final int value = (int)(i % 251) + 1;
            final long rc;
            switch (kind)
            {
                case WRITE:
                    rc = side.write(region, value, i);
                    break;
                case READ:
                    rc = side.read(region, i);
                    break;
                default:
                    rc = side.fetchAdd(region, 1, i);
            }
            if (rc != 0)
            {
                if (!refusals.contains(rc))
                {
                    problem("op " + i + " " + kind + ": call returned " + rc + " " + Errno.name((int)-rc));
                }
                if (kind == Kind.READ && !side.inUntouched())
                {
                    problem("op " + i + ": a refused read changed the local buffer");
                }
                return "REFUSED_" + Errno.name((int)-rc);
            }
            final long c = side.poll();
            if (c == Long.MIN_VALUE)
            {
                problem("op " + i + " " + kind + ": no completion within 30 s");
                return "HANG";
            }
            final long context = c < 0 ? side.err.opContext : side.entries.opContext[0];
            if (context != i)
            {
                problem("op " + i + " " + kind + ": completion of context " + context);
            }
            if (c < 0)
            {
                final int errno = (int)-c;
                if (!errors.contains(errno))
                {
                    problem("op " + i + " " + kind + ": error completion " + errno + " " + Errno.name(errno));
                }
                if (kind == Kind.WRITE && firstFailedWrite < 0)
                {
                    firstFailedWrite = value;
                }
                if (kind != Kind.READ)
                {
                    dataUndefined = true; // a write or add that failed may have landed (RemoteMemory's contract)
                }
                return "ERR_" + Errno.name(errno);
            }
            switch (kind)
            {
                case WRITE:
                    expectFlags(i, kind, c, Flags.FI_RMA | Flags.FI_WRITE);
                    lastOkWrite = value;
                    break;
                case READ:
                    expectFlags(i, kind, c, Flags.FI_RMA | Flags.FI_READ);
                    if (!dataUndefined && !side.inHolds(lastOkWrite))
                    {
                        problem("op " + i + ": read " + Long.toHexString(side.in.getLong(0)) + "..., not the last " +
                            "write's " + lastOkWrite);
                    }
                    break;
                default:
                    expectFlags(i, kind, c, Flags.FI_ATOMIC | Flags.FI_READ);
                    if (!dataUndefined && side.result.getLong(0) != okFetchAdds)
                    {
                        problem("op " + i + ": fetch-add returned " + side.result.getLong(0) + " after " +
                            okFetchAdds + " successful ones");
                    }
                    okFetchAdds++;
            }
            return OK;
        }

        private void expectFlags(final long i, final Kind kind, final long flags, final long expected)
        {
            if (flags != expected)
            {
                problem("op " + i + " " + kind + ": flags " + Long.toHexString(flags));
            }
        }

        private synchronized void problem(final String what)
        {
            if (problemCount++ < MAX_PROBLEMS)
            {
                problems.add(what);
            }
        }

        private synchronized void record(final int p, final Kind kind, final String outcome, final long start)
        {
            ops[p]++;
            tally.merge(phases[p] + " " + kind + " " + outcome, 1L, Long::sum);
            final List<Run> list = runs.get(p);
            Run last = list.isEmpty() ? null : list.get(list.size() - 1);
            if (last == null || !last.outcome.equals(outcome))
            {
                if (list.size() == MAX_RUNS)
                {
                    problem("more than " + MAX_RUNS + " changes of outcome in phase " + phases[p]);
                    stop = true;
                    return;
                }
                last = new Run(outcome, start);
                list.add(last);
            }
            last.count++;
        }

        synchronized long ops(final int p)
        {
            return ops[p];
        }

        /** @return the outcomes of a phase, one per run, in order. */
        synchronized List<String> outcomes(final int p)
        {
            final List<String> l = new ArrayList<>();
            for (final Run r : runs.get(p))
            {
                l.add(r.outcome);
            }
            return l;
        }

        /** @return the start (nanoTime) of the first operation with this outcome, in any phase. */
        synchronized long firstStart(final String outcome)
        {
            for (final List<Run> list : runs)
            {
                for (final Run r : list)
                {
                    if (r.outcome.equals(outcome))
                    {
                        return r.firstStart;
                    }
                }
            }
            throw new AssertionError("no " + outcome);
        }

        /** @return the start (nanoTime) of the first operation of phase {@code p} with this outcome. */
        synchronized long firstStartIn(final int p, final String outcome)
        {
            for (final Run r : runs.get(p))
            {
                if (r.outcome.equals(outcome))
                {
                    return r.firstStart;
                }
            }
            throw new AssertionError("no " + outcome + " in phase " + phases[p]);
        }

        /**
         * Fail if, in phases {@code from..to} taken in order, an operation with outcome {@code later} follows one
         * with {@code first}.
         */
        synchronized void assertNeverAfter(final String first, final String later, final int from, final int to)
        {
            boolean seen = false;
            for (int p = from; p <= to; p++)
            {
                for (final Run r : runs.get(p))
                {
                    seen |= r.outcome.equals(first);
                    assertFalse(seen && r.outcome.equals(later),
                        later + " after " + first + " in phases " + phases[from] + ".." + phases[to] + ": " + report());
                }
            }
        }

        /** Fail if an operation of phases {@code from..to} had an outcome outside {@code allowed}. */
        synchronized void assertOnly(final Set<String> allowed, final int from, final int to)
        {
            for (int p = from; p <= to; p++)
            {
                for (final Run r : runs.get(p))
                {
                    assertTrue(allowed.contains(r.outcome), r.outcome + " in phase " + phases[p] + ": " + report());
                }
            }
        }

        void awaitOps(final int p, final long n, final long seconds) throws InterruptedException
        {
            await(() -> ops(p) >= n, seconds, phases[p] + ": " + n + " operations");
        }

        void awaitOutcome(final String outcome, final long seconds) throws InterruptedException
        {
            await(() ->
            {
                synchronized (this)
                {
                    return runs.stream().anyMatch(l -> l.stream().anyMatch(r -> r.outcome.equals(outcome)));
                }
            }, seconds, outcome);
        }

        void awaitOutcomeIn(final int p, final String outcome, final long seconds) throws InterruptedException
        {
            await(() -> outcomes(p).contains(outcome), seconds, phases[p] + ": " + outcome);
        }

        private void await(final BooleanSupplier condition, final long seconds, final String what)
            throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (!condition.getAsBoolean())
            {
                synchronized (this)
                {
                    if (thrown != null || problemCount > 0 || !thread.isAlive())
                    {
                        stop = true;
                        fail("stream ended or went wrong waiting for " + what + ": " + report(), thrown);
                    }
                }
                if (System.nanoTime() > deadline)
                {
                    stop = true;
                    fail("no " + what + " within " + seconds + " s: " + report());
                }
                Thread.sleep(5);
            }
        }

        void stopAndJoin() throws InterruptedException
        {
            stop = true;
            thread.join(TimeUnit.SECONDS.toMillis(60));
            if (thread.isAlive())
            {
                final StringBuilder stack = new StringBuilder();
                for (final StackTraceElement e : thread.getStackTrace())
                {
                    stack.append("\n  at ").append(e);
                }
                fail("the stream's call did not return within 60 s:" + stack);
            }
        }

        synchronized void assertNoProblems()
        {
            if (thrown != null)
            {
                throw new AssertionError("the stream threw: " + report(), thrown);
            }
            assertEquals(0, problemCount, "problems: " + report());
        }

        synchronized String report()
        {
            final StringBuilder b = new StringBuilder();
            for (int p = 0; p < phases.length; p++)
            {
                b.append(phases[p]).append(' ').append(runs.get(p)).append("; ");
            }
            b.append("tally ").append(tally);
            if (problemCount > 0)
            {
                b.append("; ").append(problemCount).append(" problem(s): ").append(problems);
            }
            if (thrown != null)
            {
                b.append("; threw ").append(thrown);
            }
            return b.toString();
        }
    }
}
