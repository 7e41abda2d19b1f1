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

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The soak's checker on hand-made journals and reports of the form {@link SoakPeerMain} writes: a clean run is
 * clean, and every kind of fault the soak is there to catch is counted as what it is, so the soak's assertions can
 * fail.
 */
class SoakAuditTest
{
    private static final long A = 0xa1;
    private static final long B = 0xb1;
    private static final long B2 = 0xb2;

    private static List<String> report(final String... lines)
    {
        return List.of(lines);
    }

    private static String totals()
    {
        return "totals corrupted=0 aborted=0 refused=0 eagain=0 unfinished=0 unmet=0 inject=1 send=0 segmented=0 " +
            "rendezvous=0 delivery=0";
    }

    /** A sends 10 to the killed B (3 of them failed at its death) and 5 to B2, which takes B's place. */
    private static SoakAudit cleanRun(final List<String> b2Journal, final String b2RecvFromA)
    {
        final SoakAudit audit = new SoakAudit();
        audit.instance(A, 0, true, List.of("senterr " + B + " 8 FI_EHOSTUNREACH", "senterr " + B + " 9 x",
            "senterr " + B + " 10 x"), report(
            "instance " + A + " logical=0",
            "send " + B + " posted=10 ok=7 bytes=700 outstanding=0 failed=8-10 last=7",
            "send " + B2 + " posted=5 ok=5 bytes=500 outstanding=0 failed=- last=5",
            totals()));
        audit.instance(B, 1, false, List.of("stat t=1 recv=6 bytes=600 sent=0 senterr=0"), null);
        audit.instance(B2, 1, true, b2Journal, report(
            "instance " + B2 + " logical=1",
            b2RecvFromA,
            totals()));
        return audit;
    }

    @Test
    void shouldPassACleanRunWhereSendsToAKilledPeerFailed()
    {
        final SoakAudit.Verdict v = cleanRun(List.of(), "recv " + A + " last=5 count=5 bytes=500 dup=0 wrong=0 " +
            "gaps=-").verdict();
        assertTrue(v.clean(), v.problems.toString());
        assertEquals(11, v.messages, "5 by B2, 6 by B before it was killed");
        assertEquals(3, v.sentFailed);
        assertEquals(1, v.livePairs);
        assertEquals(5, v.restartedReceived);
    }

    @Test
    void shouldCountAMessageForTheDeadIncarnationAsWrongIncarnation()
    {
        final SoakAudit.Verdict v = cleanRun(List.of("bad wrong " + A + " 8 100 to=" + B),
            "recv " + A + " last=5 count=5 bytes=500 dup=0 wrong=1 gaps=-").verdict();
        assertEquals(1, v.wrongIncarnation);
        assertTrue(!v.clean());
    }

    @Test
    void shouldCountASuccessfulSendThatNeverArrivedAsLost()
    {
        final SoakAudit.Verdict v = cleanRun(List.of(), "recv " + A + " last=4 count=4 bytes=400 dup=0 wrong=0 " +
            "gaps=-").verdict();
        assertEquals(1, v.lost);
    }

    @Test
    void shouldCountAGapNoFailedSendExplainsAsLostButNotOneThatFailed()
    {
        final SoakAudit gap = cleanRun(List.of("gap " + A + " 3 3"),
            "recv " + A + " last=5 count=4 bytes=400 dup=0 wrong=0 gaps=3-3");
        assertEquals(1, gap.verdict().lost);

        final SoakAudit audit = new SoakAudit();
        audit.instance(A, 0, true, List.of("senterr " + B + " 2 FI_EHOSTUNREACH"), report(
            "send " + B + " posted=3 ok=2 bytes=200 outstanding=0 failed=2-2 last=3", totals()));
        audit.instance(B, 1, true, List.of("gap " + A + " 2 2"), report(
            "recv " + A + " last=3 count=2 bytes=200 dup=0 wrong=0 gaps=2-2", totals()));
        final SoakAudit.Verdict v = audit.verdict();
        assertTrue(v.clean(), "a send that failed leaves a legitimate gap: " + v.problems);
    }

    @Test
    void shouldHoldAKilledReceiverToItsGapsButNotItsTail()
    {
        final SoakAudit audit = new SoakAudit();
        audit.instance(A, 0, true, List.of(), report(
            "send " + B + " posted=100 ok=100 bytes=1 outstanding=0 failed=- last=100", totals()));
        audit.instance(B, 1, false, List.of("gap " + A + " 40 41", "stat t=1 recv=50 bytes=1 sent=0 senterr=0"),
            null);
        final SoakAudit.Verdict v = audit.verdict();
        assertEquals(2, v.lost, "the gap is a loss; the 50 after the last the killed receiver took are not");
    }

    @Test
    void shouldCountDuplicatesCorruptionsAndMessagesDeliveredThoughTheirSendFailed()
    {
        final SoakAudit audit = new SoakAudit();
        audit.instance(A, 0, true, List.of(), report(
            "send " + B + " posted=5 ok=4 bytes=400 outstanding=0 failed=3-3 last=5", totals()));
        audit.instance(B, 1, true, List.of("bad duplicate " + A + " 2 100", "bad corrupted ? ? 7"), report(
            "recv " + A + " last=5 count=5 bytes=500 dup=1 wrong=0 gaps=-",
            "totals corrupted=1 aborted=0 refused=0 eagain=0 unfinished=2 unmet=1"));
        final SoakAudit.Verdict v = audit.verdict();
        assertEquals(1, v.duplicated);
        assertEquals(1, v.corrupted);
        assertEquals(1, v.deliveredAfterError);
        assertEquals(2, v.unfinished);
        assertEquals(1, v.unmet);
        assertTrue(!v.clean());
    }
}
