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
package io.jfabric.shm.cntr;

import io.jfabric.CntrAttr;
import io.jfabric.Counter;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.FidClass;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.WaitObj;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.ShmTestRoot;
import io.jfabric.shm.core.DomainResources;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.region.RegionGeometry;

import org.agrona.concurrent.AtomicBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fi_cntr(3) over the shm provider, including the loops of libfabric's counter unit tests (fabtests
 * unit/cntr_test.c: set, seterr, add, adderr with exact read and readerr values) and wait.
 */
class ShmCounterTest
{
    private static final int LOOPS = 100;

    private ShmTestRoot root;
    private Fabric fabric;
    private ShmDomain domain;
    private Info info;

    @BeforeEach
    void setUp()
    {
        root = new ShmTestRoot();
        final ShmProvider provider = root.provider(key -> "cntr.count".equals(key) ? "4" : null);
        final Info hints = new Info();
        hints.domainAttr().name("cntr");
        info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        fabric = provider.fabric(info.fabricAttr(), 0);
        domain = (ShmDomain)fabric.domain(info, 0);
    }

    @AfterEach
    void tearDown()
    {
        try
        {
            domain.close();
            fabric.close();
        }
        finally
        {
            root.close();
        }
    }

    private static void assertErrno(final int errno, final Executable call)
    {
        final FabricException ex = assertThrows(FabricException.class, call);
        assertEquals(errno, ex.errno(), ex.getMessage());
    }

    @Test
    void shouldOpenWithDefaultsAndCloseIdempotently()
    {
        final Counter counter = domain.cntrOpen(null, 5);
        assertEquals(FidClass.CNTR, counter.fidClass());
        assertEquals(5, counter.context());
        assertEquals(0, counter.read());
        assertEquals(0, counter.readErr());
        assertEquals(WaitObj.NONE, counter.attr().waitObj());
        assertErrno(Errno.FI_EBUSY, domain::close);
        counter.close();
        counter.close();
        assertEquals(-Errno.FI_EBADF, counter.add(1));
    }

    @Test
    void shouldSetAndReadExactValuesInALoop()
    {
        try (Counter counter = domain.cntrOpen(new CntrAttr(), 0))
        {
            for (long i = 0; i < LOOPS; i++)
            {
                assertEquals(0, counter.set(i));
                assertEquals(i, counter.read());
                assertEquals(0, counter.readErr(), "set leaves the error count alone");
            }
        }
    }

    @Test
    void shouldSetErrAndReadErrExactValuesInALoop()
    {
        try (Counter counter = domain.cntrOpen(new CntrAttr(), 0))
        {
            for (long i = 0; i < LOOPS; i++)
            {
                assertEquals(0, counter.setErr(i));
                assertEquals(i, counter.readErr());
                assertEquals(0, counter.read(), "seterr leaves the count alone");
            }
        }
    }

    @Test
    void shouldAddAndReadExactValuesInALoop()
    {
        try (Counter counter = domain.cntrOpen(new CntrAttr(), 0))
        {
            long expected = 0;
            for (long i = 0; i < LOOPS; i++)
            {
                assertEquals(0, counter.add(i));
                expected += i;
                assertEquals(expected, counter.read());
                assertEquals(0, counter.readErr());
            }
            assertEquals(LOOPS * (LOOPS - 1) / 2, counter.read());
        }
    }

    @Test
    void shouldAddErrAndReadErrExactValuesInALoop()
    {
        try (Counter counter = domain.cntrOpen(new CntrAttr(), 0))
        {
            assertEquals(0, counter.set(7));
            long expected = 0;
            for (long i = 0; i < LOOPS; i++)
            {
                assertEquals(0, counter.addErr(i));
                expected += i;
                assertEquals(expected, counter.readErr());
                assertEquals(7, counter.read());
            }
        }
    }

    @Test
    void shouldKeepCountersOfOneDomainApart()
    {
        try (Counter a = domain.cntrOpen(null, 0);
            Counter b = domain.cntrOpen(null, 0))
        {
            a.add(3);
            b.addErr(4);
            assertEquals(3, a.read());
            assertEquals(0, a.readErr());
            assertEquals(0, b.read());
            assertEquals(4, b.readErr());
        }
    }

    @Test
    void shouldStartAReusedEntryAtZero()
    {
        final Counter first = domain.cntrOpen(null, 0);
        first.add(10);
        first.addErr(2);
        final int index = ((ShmCounter)first).index();
        first.close();
        try (Counter second = domain.cntrOpen(null, 0))
        {
            assertEquals(index, ((ShmCounter)second).index());
            assertEquals(0, second.read());
            assertEquals(0, second.readErr());
        }
    }

    @Test
    void shouldReclaimCounterEntriesOfAnEarlierProcessWithThisPidButNotOfALiveProcess()
    {
        final long self = ProcessIdentity.self();
        final long earlier = ProcessIdentity.of(ProcessIdentity.pid(self), ProcessIdentity.start(self) - 1);
        final long parent = ProcessIdentity.ofLiveProcess(ProcessHandle.current().parent().orElseThrow().pid());
        final AtomicBuffer region = domain.region().buffer();
        final RegionGeometry geometry = domain.region().geometry();
        final CounterTable table = domain.counterTable();
        assertEquals(4, geometry.counterEntries());
        for (int i = 0; i < 4; i++)
        {
            final int entry = CounterTableDescriptor.entryOffset(geometry, i);
            region.putLongVolatile(entry + CounterTableDescriptor.OWNER_OFFSET, i == 3 ? parent : earlier);
            region.putIntVolatile(entry + CounterTableDescriptor.STATE_OFFSET, CounterTableDescriptor.STATE_IN_USE);
        }
        final List<Counter> counters = new ArrayList<>();
        try
        {
            for (int i = 0; i < 3; i++)
            {
                counters.add(domain.cntrOpen(null, 0));
                assertEquals(i, ((ShmCounter)counters.get(i)).index(), "the earlier process's entry is taken back");
                assertEquals(self, table.owner(i));
            }
            assertErrno(Errno.FI_ENOSPC, () -> domain.cntrOpen(null, 0));
            assertEquals(parent, table.owner(3), "a live process keeps its counter");
        }
        finally
        {
            counters.forEach(Counter::close);
        }
        assertEquals(0, table.owner(0), "closing gives the entry back");
    }

    @Test
    void shouldSeeCountsThroughAnotherDomainObjectOfTheSameRegion()
    {
        final ShmDomain other = (ShmDomain)fabric.domain(info, 0);
        try (Counter counter = domain.cntrOpen(null, 0))
        {
            final int index = ((ShmCounter)counter).index();
            other.counterTable().add(index, 5);
            assertEquals(5, counter.read());
        }
        finally
        {
            other.close();
        }
    }

    @Test
    void shouldReturnWhenTheThresholdIsReachedAndTimeOutOtherwise() throws Exception
    {
        try (Counter counter = domain.cntrOpen(new CntrAttr().waitObj(WaitObj.UNSPEC), 0))
        {
            counter.set(5);
            assertEquals(0, counter.await(5, 0));
            assertEquals(-Errno.FI_ETIMEDOUT, counter.await(6, 0));
            final long start = System.nanoTime();
            assertEquals(-Errno.FI_ETIMEDOUT, counter.await(6, 100));
            assertTrue(System.nanoTime() - start >= 100_000_000L, "waited the timeout");
            assertEquals(5, counter.read());

            final Thread adder = new Thread(() ->
            {
                for (int i = 0; i < 10; i++)
                {
                    counter.add(1);
                }
            });
            adder.start();
            assertEquals(0, counter.await(15, 10_000));
            adder.join();
            assertEquals(15, counter.read());
            assertEquals(0, counter.readErr(), "a timeout leaves the error count unchanged");
        }
    }

    @Test
    void shouldReturnEavailWhenTheErrorCountChangesWhileWaiting() throws Exception
    {
        try (Counter counter = domain.cntrOpen(new CntrAttr().waitObj(WaitObj.YIELD), 0))
        {
            final Thread failer = new Thread(() ->
            {
                try
                {
                    Thread.sleep(50);
                }
                catch (final InterruptedException ignore)
                {
                    Thread.currentThread().interrupt();
                }
                counter.addErr(1);
            });
            failer.start();
            assertEquals(-Errno.FI_EAVAIL, counter.await(1, 10_000));
            failer.join();
            assertEquals(1, counter.readErr());
        }
    }

    @Test
    void shouldRefuseWaitWithoutAWaitObjectAndBadAttributes()
    {
        try (Counter counter = domain.cntrOpen(null, 0))
        {
            assertEquals(-Errno.FI_EINVAL, counter.await(0, 0));
        }
        assertErrno(Errno.FI_EINVAL, () -> domain.cntrOpen(new CntrAttr().flags(1), 0));
        assertErrno(Errno.FI_EINVAL, () -> domain.cntrOpen(new CntrAttr().events(1), 0));
        assertErrno(Errno.FI_EINVAL, () -> domain.cntrOpen(new CntrAttr().waitObj(WaitObj.SET), 0));
        assertEquals(0, domain.resources().inUse(DomainResources.Kind.COUNTER));
    }

    @Test
    void shouldReturnEnospcWhenTheTableOrCntrCntIsExhausted()
    {
        final List<Counter> counters = new ArrayList<>();
        try
        {
            for (int i = 0; i < 4; i++)
            {
                counters.add(domain.cntrOpen(null, 0));
            }
            final ShmDomain other = (ShmDomain)fabric.domain(info, 0);
            try
            {
                assertErrno(Errno.FI_ENOSPC, () -> other.cntrOpen(null, 0));
                assertEquals(0, other.resources().inUse(DomainResources.Kind.COUNTER));
            }
            finally
            {
                other.close();
            }
        }
        finally
        {
            counters.forEach(Counter::close);
        }
        final Info limited = info.copy();
        limited.domainAttr().cntrCnt(1);
        final ShmDomain small = (ShmDomain)fabric.domain(limited, 0);
        try (Counter one = small.cntrOpen(null, 0))
        {
            assertErrno(Errno.FI_ENOSPC, () -> small.cntrOpen(null, 0));
        }
        finally
        {
            small.close();
        }
    }

    @Test
    void shouldKeepReturningTheCountsAtCloseAfterClose()
    {
        final Counter counter = domain.cntrOpen(null, 0);
        counter.set(7);
        counter.setErr(3);
        final int index = ((ShmCounter)counter).index();
        counter.close();
        try (Counter reuser = domain.cntrOpen(null, 0))
        {
            assertEquals(index, ((ShmCounter)reuser).index(), "the entry went to another counter");
            reuser.set(1000);
            reuser.setErr(2000);
            assertEquals(7, counter.read(), "the count at close, not -FI_EBADF nor the new owner's count");
            assertEquals(3, counter.readErr());
            assertEquals(-Errno.FI_EBADF, counter.set(1));
            assertEquals(-Errno.FI_EBADF, counter.addErr(1));
            assertEquals(1000, reuser.read());
        }
    }

    @Test
    void shouldCompareCountsAndThresholdsAsUnsigned64BitValues()
    {
        try (Counter counter = domain.cntrOpen(new CntrAttr().waitObj(WaitObj.UNSPEC), 0))
        {
            counter.set(-5L); // 2^64 - 5
            assertEquals(0, counter.await(10, 0), "2^64 - 5 is above 10");
            assertEquals(0, counter.await(Long.MIN_VALUE, 0), "and above 2^63");
            assertEquals(-Errno.FI_ETIMEDOUT, counter.await(-1L, 0), "but below 2^64 - 1");
            counter.set(5);
            assertEquals(-Errno.FI_ETIMEDOUT, counter.await(Long.MIN_VALUE, 0), "5 is below 2^63");
            assertEquals(-Errno.FI_ETIMEDOUT, counter.await(-1L, 0));
            counter.add(-1L - 4); // wraps as uint64: 5 + (2^64 - 5) = 0
            assertEquals(0, counter.read());
        }
    }

    /** fabtests unit/cntr_test.c cntr_loop: min(cntr_cnt, 100) counters open at once, every operation on each. */
    @Test
    void shouldRunLibfabricsCntrLoopOverMinOfCntrCntAnd100CountersOpenAtOnce()
    {
        try (ShmTestRoot loopRoot = new ShmTestRoot())
        {
            final ShmProvider provider = loopRoot.provider(key -> null);
            final Info hints = new Info();
            hints.domainAttr().name("cntrloop");
            final Info loopInfo = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
            final Fabric loopFabric = provider.fabric(loopInfo.fabricAttr(), 0);
            final ShmDomain loopDomain = (ShmDomain)loopFabric.domain(loopInfo, 0);
            final int count = (int)Math.min(loopDomain.attr().cntrCnt(), 100);
            assertEquals(100, count, "the default cntr_cnt (128) is above 100");
            final List<Counter> counters = new ArrayList<>();
            try
            {
                for (int i = 0; i < count; i++)
                {
                    counters.add(loopDomain.cntrOpen(new CntrAttr().waitObj(WaitObj.UNSPEC), i));
                }
                for (int round = 0; round < 3; round++)
                {
                    for (int i = 0; i < count; i++)
                    {
                        final Counter c = counters.get(i);
                        assertEquals(0, c.set(i * 1000L + round));
                        assertEquals(0, c.setErr(i));
                        assertEquals(0, c.add(i));
                        assertEquals(0, c.addErr(1));
                    }
                    for (int i = 0; i < count; i++)
                    {
                        final Counter c = counters.get(i);
                        final long expected = i * 1000L + round + i;
                        assertEquals(expected, c.read(), "counter " + i + " round " + round);
                        assertEquals(i + 1, c.readErr(), "counter " + i + " round " + round);
                        assertEquals(i, c.context());
                        assertEquals(0, c.await(expected, 0));
                        assertEquals(-Errno.FI_ETIMEDOUT, c.await(expected + 1, 0));
                    }
                }
                assertEquals(count, loopDomain.resources().inUse(DomainResources.Kind.COUNTER));
            }
            finally
            {
                counters.forEach(Counter::close);
                loopDomain.close();
                loopFabric.close();
            }
            assertEquals(0, loopDomain.resources().inUse(DomainResources.Kind.COUNTER));
        }
    }
}
