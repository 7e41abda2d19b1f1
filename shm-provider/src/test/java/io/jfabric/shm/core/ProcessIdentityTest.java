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
package io.jfabric.shm.core;

import io.jfabric.shm.ShmTestRoot;
import io.jfabric.testsupport.ChildJvm;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ProcessIdentity}: the encoding, and the liveness decision against real processes (this JVM, its parent, a
 * child JVM that exits) and crafted identities that stand for a reused pid.
 */
class ProcessIdentityTest
{
    private final ShmTestRoot root = new ShmTestRoot();

    @AfterEach
    void tearDown()
    {
        root.close();
    }

    @Test
    void shouldRoundTripPidAndStartThroughOneLong()
    {
        final long identity = ProcessIdentity.of(4_194_303, 0x12_3456_789AL);
        assertEquals(4_194_303, ProcessIdentity.pid(identity));
        assertEquals(0x12_3456_789AL, ProcessIdentity.start(identity));
        assertEquals(0, identity >>> 62, "the top two bits stay free for a tag");
        assertEquals(17, ProcessIdentity.pid(ProcessIdentity.of(17, -1L)), "start bits never spill into the pid");
    }

    @Test
    void shouldGiveThisProcessAnIdentityWithItsPidAndAKnownStart()
    {
        final long self = ProcessIdentity.self();
        assertNotEquals(0, self);
        assertEquals(ProcessHandle.current().pid(), ProcessIdentity.pid(self));
        assertNotEquals(0, ProcessIdentity.start(self), "Linux /proc gives the start time");
        assertEquals(self, ProcessIdentity.ofLiveProcess(ProcessHandle.current().pid()));
        assertTrue(ProcessIdentity.describe(self).startsWith("process " + ProcessHandle.current().pid() + " ("),
            ProcessIdentity.describe(self));
    }

    @Test
    void shouldRecordTheStartTimeTheJdkReportsToWithinASecond() throws Exception
    {
        final long bootSeconds = Files.readAllLines(Path.of("/proc/stat")).stream()
            .filter(line -> line.startsWith("btime ")).mapToLong(line -> Long.parseLong(line.substring(6).trim()))
            .findFirst().orElseThrow();
        final long ticks = ProcessIdentity.start(ProcessIdentity.self()) - 1;
        final long startMillis = bootSeconds * 1000 + ticks * 10; // USER_HZ is 100 on Linux
        final Instant jdk = ProcessHandle.current().info().startInstant().orElseThrow();
        assertTrue(Math.abs(jdk.toEpochMilli() - startMillis) < 1000, jdk + " vs " + Instant.ofEpochMilli(startMillis));
    }

    @Test
    void shouldNeverJudgeThisProcessGone()
    {
        assertFalse(ProcessIdentity.isGone(ProcessIdentity.self()));
    }

    @Test
    void shouldJudgeThisPidWithAnotherStartTimeGone()
    {
        final long self = ProcessIdentity.self();
        final long pid = ProcessIdentity.pid(self);
        final long start = ProcessIdentity.start(self);
        assertTrue(ProcessIdentity.isGone(ProcessIdentity.of(pid, start - 1)), "an earlier process with this pid");
        assertTrue(ProcessIdentity.isGone(ProcessIdentity.of(pid, start + 1)), "a later process with this pid");
    }

    @Test
    void shouldJudgeAnotherLiveProcessByItsStartTime()
    {
        final long parentPid = ProcessHandle.current().parent().orElseThrow().pid();
        final long parent = ProcessIdentity.ofLiveProcess(parentPid);
        assertNotEquals(0, parent);
        assertFalse(ProcessIdentity.isGone(parent));
        assertTrue(ProcessIdentity.isGone(ProcessIdentity.of(parentPid, ProcessIdentity.start(parent) + 1)),
            "the live process with that pid started at another time: the pid was reused");
    }

    @Test
    void shouldJudgeAnUnknownStartByThePidAlone() throws Exception
    {
        final long parentPid = ProcessHandle.current().parent().orElseThrow().pid();
        assertFalse(ProcessIdentity.isGone(ProcessIdentity.of(parentPid, 0)));
        assertFalse(ProcessIdentity.isGone(ProcessIdentity.of(ProcessHandle.current().pid(), 0)));
        final Process exited = new ProcessBuilder("true").start();
        exited.waitFor();
        assertTrue(ProcessIdentity.isGone(ProcessIdentity.of(exited.pid(), 0)));
        assertEquals(0, ProcessIdentity.ofLiveProcess(exited.pid()));
    }

    @Test
    void shouldJudgeAChildJvmAliveWhileItRunsAndGoneOnceItExited() throws Exception
    {
        Files.createDirectories(root.dir());
        final Path identityFile = root.dir().resolve("child.identity");
        final Path goFile = root.dir().resolve("child.go");
        final ChildJvm child = ChildJvm.start(IdentityChildMain.class, List.of(), identityFile.toString(),
            goFile.toString());
        final long deadline = System.currentTimeMillis() + 60_000;
        while (!Files.exists(identityFile) && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(5);
        }
        if (!Files.exists(identityFile))
        {
            throw new AssertionError("the child wrote no identity: " + child.awaitSuccess(10));
        }
        final long identity = Long.parseLong(Files.readString(identityFile, StandardCharsets.US_ASCII));
        assertEquals(child.pid(), ProcessIdentity.pid(identity));
        assertEquals(identity, ProcessIdentity.ofLiveProcess(child.pid()), "both processes read the same start");
        assertFalse(ProcessIdentity.isGone(identity), "the child runs");

        Files.createFile(goFile);
        child.awaitSuccess(60);
        assertTrue(ProcessIdentity.isGone(identity), "the child exited");
    }

    @Test
    void shouldReadStartAndStateAfterTheLastParenthesisOfTheCommand()
    {
        final String fields = " 25491 25491 24611 0 -1 4194304 98 0 0 0 0 0 0 0 20 0 1 0 780003 3133440 407";
        assertEquals(780004, ProcessIdentity.parseStat("25495 (a) b (c)) S" + fields));
        assertEquals(-1, ProcessIdentity.parseStat("25495 (java) Z" + fields), "a zombie can release nothing");
        assertEquals(0, ProcessIdentity.parseStat("25495 (java) S 1 2"), "too short: start unknown");
    }

    @Test
    void shouldRefuseAPidOutsideTheBitsAnIdentityHas()
    {
        assertThrows(IllegalArgumentException.class, () -> ProcessIdentity.of(1L << ProcessIdentity.PID_BITS, 1));
        assertThrows(IllegalArgumentException.class, () -> ProcessIdentity.of(0, 1));
    }
}
