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
package io.jfabric.shm.region;

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.core.ProcessIdentity;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A region's user table says who has it open, and a region is removed only when none of them is alive, never while
 * an open joins it. The processes here are this one and identities of processes that are gone (this pid with an
 * earlier start time, as an earlier process with this pid would be recorded); the real SIGKILLed processes are in
 * the tools' {@code CleanCommandTest}.
 */
class RegionUsersTest
{
    private static final RegionGeometry GEOMETRY = new RegionGeometry(2, 4096, 4096, 4096, 16, 8);
    private static final String NAME = "users";

    private final ShmTestRoot root = new ShmTestRoot();
    private final long self = ProcessIdentity.self();
    private final long gone = ProcessIdentity.of(ProcessIdentity.pid(self), ProcessIdentity.start(self) - 1);

    @AfterEach
    void after()
    {
        root.close();
    }

    @Test
    void shouldRecordEachOpenInTheUserTableAndGiveItBackOnClose()
    {
        final RegionFile first = open();
        final RegionFile second = open();
        final RegionUsers users = new RegionUsers(first.buffer());
        assertEquals(2, users.entriesOf(self));

        second.close();
        assertEquals(1, users.entriesOf(self));
        assertEquals(self, users.liveUser());
        first.close();

        try (RegionFile third = open())
        {
            assertEquals(1, new RegionUsers(third.buffer()).entriesOf(self), "closes gave both entries back");
        }
    }

    @Test
    void shouldRemoveARegionNoProcessHasOpen()
    {
        open().close();

        final RegionRemoval removal = RegionRemoval.remove(directory(), NAME);

        assertEquals(RegionRemoval.Outcome.REMOVED, removal.outcome());
        assertFalse(Files.exists(path()));
        assertEquals(RegionRemoval.Outcome.GONE, RegionRemoval.remove(directory(), NAME).outcome());
    }

    @Test
    void shouldKeepARegionALiveProcessHasOpenAndLetItBeOpenedAgain()
    {
        try (RegionFile region = open())
        {
            final RegionRemoval removal = RegionRemoval.remove(directory(), NAME);

            assertEquals(RegionRemoval.Outcome.IN_USE, removal.outcome());
            assertEquals(self, removal.process());
            assertTrue(Files.exists(path()));
            assertEquals(0, new RegionUsers(region.buffer()).remover(), "the remover gave the region back");
            try (RegionFile again = open())
            {
                assertFalse(again.created());
            }
        }
    }

    @Test
    void shouldRemoveARegionWhoseOnlyUsersAreGone()
    {
        try (RegionFile region = open())
        {
            new RegionUsers(region.buffer()).claim(gone);
        }

        assertEquals(RegionRemoval.Outcome.REMOVED, RegionRemoval.remove(directory(), NAME).outcome());
    }

    @Test
    void shouldReuseEntriesOfGoneProcessesWhenTheTableIsFull()
    {
        try (RegionFile region = open())
        {
            fill(new RegionUsers(region.buffer()), gone);
            try (RegionFile another = open())
            {
                assertEquals(2, new RegionUsers(another.buffer()).entriesOf(self));
            }
        }
    }

    @Test
    void shouldRefuseAnOpenWhenTheTableIsFullOfLiveOpens()
    {
        try (RegionFile region = open())
        {
            final RegionUsers users = new RegionUsers(region.buffer());
            fill(users, self);

            final FabricException ex = assertThrows(FabricException.class, this::open);
            assertEquals(Errno.FI_ENOSPC, ex.errno());
            assertTrue(ex.getMessage().contains("user table"), ex.getMessage());
            assertEquals(RegionDescriptor.USER_TABLE_ENTRIES, users.entriesOf(self), "the refused open took none");
        }
    }

    @Test
    void shouldOpenARegionWhoseRemoverDiedHalfWay()
    {
        try (RegionFile region = open())
        {
            assertTrue(new RegionUsers(region.buffer()).compareAndSetRemover(0, gone));
        }

        try (RegionFile region = open())
        {
            assertFalse(region.created());
            assertEquals(0, new RegionUsers(region.buffer()).remover(), "the dead remover's mark is cleared");
        }
    }

    @Test
    void shouldFailWithEbusyWhileALiveRemoverHoldsTheRegion()
    {
        try (RegionFile region = open())
        {
            final RegionUsers users = new RegionUsers(region.buffer());
            assertTrue(users.compareAndSetRemover(0, self));

            final FabricException ex = assertThrows(FabricException.class,
                () -> RegionFile.openOrCreate(root.dir(), NAME, GEOMETRY, false, 20));
            assertEquals(Errno.FI_EBUSY, ex.errno());
            assertTrue(ex.getMessage().contains("is being removed by process " + ProcessIdentity.pid(self)),
                ex.getMessage());
            users.compareAndSetRemover(self, 0);
        }
    }

    @Test
    void shouldCreateTheRegionAnewWhenItIsRemovedWhileAnOpenWaits() throws Exception
    {
        final Object removedKey;
        try (RegionFile region = open())
        {
            removedKey = fileKey();
            assertTrue(new RegionUsers(region.buffer()).compareAndSetRemover(0, self));
        }
        final Thread remover = new Thread(() ->
        {
            try
            {
                Thread.sleep(50);
                Files.delete(path());
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        });
        remover.start();

        try (RegionFile region = RegionFile.openOrCreate(root.dir(), NAME, GEOMETRY, false, 5_000))
        {
            remover.join();
            assertTrue(region.created(), "the waiting open saw the file go and created a new one");
            assertNotEquals(removedKey, fileKey());
        }
    }

    @Test
    void shouldNeverRemoveARegionWhileAnOpenHoldsIt() throws Exception
    {
        open().close();
        final int rounds = 300;
        final AtomicBoolean done = new AtomicBoolean();
        final AtomicReference<String> violation = new AtomicReference<>();
        final AtomicInteger removed = new AtomicInteger();
        final CountDownLatch started = new CountDownLatch(1);
        final Thread remover = new Thread(() ->
        {
            started.countDown();
            while (!done.get())
            {
                if (RegionRemoval.remove(directory(), NAME).outcome() == RegionRemoval.Outcome.REMOVED)
                {
                    removed.incrementAndGet();
                }
            }
        });
        remover.start();
        started.await();
        try
        {
            for (int i = 0; i < rounds && violation.get() == null; i++)
            {
                try (RegionFile region = open())
                {
                    final Object key = fileKey();
                    Thread.onSpinWait();
                    if (key == null || !key.equals(fileKey()))
                    {
                        violation.set("round " + i + ": the region was removed while open");
                    }
                }
            }
        }
        finally
        {
            done.set(true);
            remover.join();
        }
        assertNull(violation.get());
        assertTrue(removed.get() > 0, "the remover did remove closed regions: the race was run");
    }

    /** Claim every entry still free for {@code identity}. */
    private static void fill(final RegionUsers users, final long identity)
    {
        for (int i = 0; i < RegionDescriptor.USER_TABLE_ENTRIES; i++)
        {
            users.claim(identity);
        }
    }

    private RegionFile open()
    {
        return RegionFile.openOrCreate(root.dir(), NAME, GEOMETRY, false);
    }

    private RegionDirectory directory()
    {
        return RegionDirectory.open(root.dir(), false);
    }

    private Path path()
    {
        return RegionFile.regionPath(root.dir(), NAME);
    }

    /** @return the region file's key, null when there is no region file. */
    private Object fileKey() throws IOException
    {
        try
        {
            return Files.readAttributes(path(), BasicFileAttributes.class).fileKey();
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
    }
}
