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
package io.jfabric.shm.soak;

import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fault soak (issue 14): {@value #PEERS} real JVMs ({@link SoakPeerMain}) on one named domain exchange
 * checksummed messages of every size and path (inject, one lane record, segmented, rendezvous, delivery-complete)
 * while this coordinator SIGKILLs one of them at a time and starts a fresh process in its place, which takes the
 * dead one's endpoint slot at the next incarnation. At the end the live ones stop sending, drain, and report, and
 * {@link SoakAudit} checks the run: 0 lost (between live peers, and no gap that a failed send does not explain),
 * 0 duplicated, 0 corrupted, 0 delivered to a wrong incarnation, and every send completed. It prints one summary
 * line, {@code soak: ...}, for the docs.
 * <p>
 * CI-sized by default: {@value #DEFAULT_SECONDS} s of traffic with a kill every {@value #DEFAULT_KILL_MS} ms on
 * average, about 30 s in all. Settings (system properties of the test JVM, e.g. through Maven's command line):
 * <ul>
 *   <li>{@value #SECONDS_PROPERTY}: seconds of traffic; the long variant is
 *   {@code mvn -B -o test -pl shm-provider -am -Dtest=SoakTest -Dsurefire.failIfNoSpecifiedTests=false
 *   -Djfabric.soak.seconds=600};</li>
 *   <li>{@value #KILL_MS_PROPERTY}: mean milliseconds between kills (each wait drawn from half to one and a half
 *   times it);</li>
 *   <li>{@value #SEED_PROPERTY}: the seed of the kill schedule and of the peers' traffic (printed in the summary;
 *   a run is not replayed exactly, since timing decides what is in flight at a kill);</li>
 *   <li>{@value #LIVENESS_PROPERTY}: the peers' {@code jfabric.shm.liveness.timeout.ms} (default
 *   {@value #DEFAULT_LIVENESS_MS}: a killed peer is found gone by its pid at once, the timeout only matters for a
 *   peer that stops, and a short one would take a peer starved of CPU on a busy machine for a stopped one);</li>
 *   <li>{@value SoakPeerMain#BREAK_PROPERTY}: passed to the peers, makes them misbehave on purpose (stamp,
 *   corrupt, skip, dup), so the run must fail: the proof that the checks catch what they are for.</li>
 * </ul>
 * Every child is killed in a finally, and both test roots (the provider's, the control files') are removed.
 */
class SoakTest
{
    static final String SECONDS_PROPERTY = "jfabric.soak.seconds";
    static final String KILL_MS_PROPERTY = "jfabric.soak.kill.ms";
    static final String SEED_PROPERTY = "jfabric.soak.seed";
    static final String LIVENESS_PROPERTY = "jfabric.soak.liveness.ms";
    static final int DEFAULT_SECONDS = 20;
    static final int DEFAULT_KILL_MS = 3_000;
    static final int DEFAULT_LIVENESS_MS = 2_000;

    private static final int PEERS = 4;
    private static final String DOMAIN = "soak";
    private static final long START_TIMEOUT_S = 90;
    private static final long PHASE_TIMEOUT_S = 90;

    /** One process: the logical peer it plays, its instance id, and whether it was killed. */
    private static final class Peer
    {
        final int logical;
        final ChildJvm child;
        long instance;
        boolean killed;

        Peer(final int logical, final ChildJvm child)
        {
            this.logical = logical;
            this.child = child;
        }
    }

    @Test
    void shouldLoseDuplicateCorruptOrMisdeliverNothingWhilePeersAreKilledAndRestarted() throws Exception
    {
        final long seconds = Long.getLong(SECONDS_PROPERTY, DEFAULT_SECONDS);
        final long killMs = Long.getLong(KILL_MS_PROPERTY, DEFAULT_KILL_MS);
        final long seed = Long.getLong(SEED_PROPERTY, System.nanoTime());
        final long livenessMs = Long.getLong(LIVENESS_PROPERTY, DEFAULT_LIVENESS_MS);
        final String breakMode = System.getProperty(SoakPeerMain.BREAK_PROPERTY, "");
        final SplittableRandom random = new SplittableRandom(seed);
        final long testStart = System.nanoTime();

        final List<Peer> all = new ArrayList<>();
        final Peer[] current = new Peer[PEERS];
        try (ShmTestRoot root = new ShmTestRoot(); ShmTestRoot control = new ShmTestRoot())
        {
            Files.createDirectories(control.dir());
            final List<String> properties = new ArrayList<>(List.of(
                "jfabric.shm.dir=" + root.dir(),
                "jfabric.shm.liveness.timeout.ms=" + livenessMs));
            if (!breakMode.isEmpty())
            {
                properties.add(SoakPeerMain.BREAK_PROPERTY + "=" + breakMode);
            }
            try
            {
                for (int k = 0; k < PEERS; k++)
                {
                    current[k] = start(k, properties, control.dir(), seed, all);
                }
                for (final Peer p : current)
                {
                    awaitReady(p);
                }

                final long soakStart = System.nanoTime();
                final long soakEnd = soakStart + TimeUnit.SECONDS.toNanos(seconds);
                int kills = 0;
                while (true)
                {
                    final long wait = killMs / 2 + random.nextLong(killMs + 1);
                    if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(wait + killMs / 2) > soakEnd)
                    {
                        break;
                    }
                    Thread.sleep(wait);
                    final int k = random.nextInt(PEERS);
                    current[k].child.kill();
                    current[k].killed = true;
                    kills++;
                    current[k] = start(k, properties, control.dir(), seed, all);
                    awaitReady(current[k]);
                }
                final long rest = soakEnd - System.nanoTime();
                if (rest > 0)
                {
                    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(rest));
                }
                final double soakSeconds = (System.nanoTime() - soakStart) / 1e9;

                for (final Peer p : current)
                {
                    p.child.tell("quiesce");
                }
                for (final Peer p : current)
                {
                    p.child.awaitResult(PHASE_TIMEOUT_S);
                }
                final Map<Long, Map<Long, Long>> lastSent = new HashMap<>();
                for (final Peer s : current)
                {
                    for (final String line : lines(control.dir(), s.instance, ".sent"))
                    {
                        final String[] w = line.split(" ");
                        final String last = w[w.length - 1];
                        lastSent.computeIfAbsent(s.instance, x -> new HashMap<>())
                            .put(Long.parseLong(w[1]), Long.parseLong(last.substring(last.indexOf('=') + 1)));
                    }
                }
                for (final Peer r : current)
                {
                    for (final Peer s : current)
                    {
                        final Long last = s == r ? null : lastSent.get(s.instance).get(r.instance);
                        if (last != null && last > 0)
                        {
                            r.child.tell("expect " + s.instance + " " + last);
                        }
                    }
                    r.child.tell("finish");
                }
                for (final Peer p : current)
                {
                    p.child.awaitResult(PHASE_TIMEOUT_S);
                    p.child.awaitSuccess(PHASE_TIMEOUT_S);
                }

                final SoakAudit audit = new SoakAudit();
                for (final Peer p : all)
                {
                    audit.instance(p.instance, p.logical, !p.killed, lines(control.dir(), p.instance, ".journal"),
                        p.killed ? null : lines(control.dir(), p.instance, ".report"));
                }
                final SoakAudit.Verdict v = audit.verdict();
                final double testSeconds = (System.nanoTime() - testStart) / 1e9;
                System.out.println(summary(v, kills, soakSeconds, testSeconds, seed, breakMode));
                System.out.println("soak: sends that succeeded, by path: " + v.byPath + "; " + v.livePairs +
                    " live pairs at the end checked whole");
                for (int i = 0; i < Math.min(20, v.problems.size()); i++)
                {
                    System.out.println("  " + v.problems.get(i));
                }

                assertEquals(0, v.lost, "lost: " + first(v.problems));
                assertEquals(0, v.duplicated, "duplicated: " + first(v.problems));
                assertEquals(0, v.corrupted, "corrupted: " + first(v.problems));
                assertEquals(0, v.wrongIncarnation, "delivered to a wrong incarnation: " + first(v.problems));
                assertEquals(0, v.deliveredAfterError, "delivered though their send failed: " + first(v.problems));
                assertEquals(0, v.phantom, "received but never sent: " + first(v.problems));
                assertEquals(0, v.unfinished, "sends that never completed");
                assertEquals(0, v.unmet, "receivers that never got what live senders sent");
                assertTrue(kills > 0 || seconds * 1000 < 2 * killMs, "peers were killed: " + kills);
                assertEquals(PEERS * (PEERS - 1), v.livePairs, "every pair of the last instances exchanged");
                assertTrue(v.messages > 0, "messages moved");
                assertTrue(kills == 0 || v.restartedReceived > 0, "restarted peers took part: " + v.restartedReceived);
            }
            finally
            {
                for (final Peer p : all)
                {
                    p.child.kill();
                }
            }
        }
    }

    private static String first(final List<String> problems)
    {
        return problems.size() <= 10 ? problems.toString() :
            problems.subList(0, 10) + " and " + (problems.size() - 10) + " more";
    }

    private static Peer start(
        final int logical,
        final List<String> properties,
        final Path controlDir,
        final long seed,
        final List<Peer> all) throws IOException
    {
        final Peer peer = new Peer(logical, ChildJvm.start(SoakPeerMain.class, properties, DOMAIN,
            Integer.toString(logical), Integer.toString(PEERS), controlDir.toString(), Long.toString(seed)));
        all.add(peer);
        return peer;
    }

    private static void awaitReady(final Peer peer) throws InterruptedException
    {
        peer.instance = Long.parseLong(peer.child.awaitResult(START_TIMEOUT_S).get("inst"));
    }

    private static List<String> lines(final Path dir, final long instance, final String suffix) throws IOException
    {
        final Path file = dir.resolve(Long.toHexString(instance) + suffix);
        return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.US_ASCII) : List.of();
    }

    static String summary(
        final SoakAudit.Verdict v,
        final int kills,
        final double soakSeconds,
        final double testSeconds,
        final long seed,
        final String breakMode)
    {
        return String.format(Locale.ROOT, "soak: %d processes (%d instances), %d kills, %d messages, %.1f MiB in " +
            "%.1f s (test %.1f s): lost %d, duplicated %d, corrupted %d, wrong incarnation %d; delivered after " +
            "error %d, unfinished %d; sends failed %d, refused %d, aborted receives %d; seed %d%s",
            PEERS, v.instances, kills, v.messages, v.bytes / (1024.0 * 1024.0), soakSeconds, testSeconds, v.lost,
            v.duplicated, v.corrupted, v.wrongIncarnation, v.deliveredAfterError, v.unfinished, v.sentFailed,
            v.refused, v.aborted, seed, breakMode.isEmpty() ? "" : " (broken: " + breakMode + ")");
    }
}
