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

import io.jfabric.DomainAttr;
import io.jfabric.FabricException;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.core.LocalHost;

import org.junit.jupiter.api.function.Executable;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Helpers the AV tests share: domain opening, address building, errno assertions.
 */
final class AvTestSupport
{
    private AvTestSupport()
    {
    }

    static Info info(final ShmProvider provider, final String domainName)
    {
        final Info hints = new Info();
        hints.domainAttr().name(domainName);
        return provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
    }

    static Info keyedInfo(final ShmProvider provider, final String domainName)
    {
        final Info hints = new Info();
        hints.domainAttr().name(domainName).authKeySize(DomainAttr.FI_AV_AUTH_KEY);
        return provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
    }

    static String addr(final String domain, final int slot)
    {
        return ShmAddress.format(LocalHost.name(), slot, domain, 0);
    }

    static String[] addrs(final String domain, final int first, final int count)
    {
        final String[] result = new String[count];
        for (int i = 0; i < count; i++)
        {
            result[i] = addr(domain, first + i);
        }
        return result;
    }

    static FabricException assertErrno(final int errno, final Executable call)
    {
        final FabricException ex = assertThrows(FabricException.class, call);
        assertEquals(errno, ex.errno(), ex.getMessage());
        return ex;
    }

    static FabricException assertErrno(final int errno, final Executable call, final String why)
    {
        final FabricException ex = assertThrows(FabricException.class, call, why);
        assertEquals(errno, ex.errno(), why + ": " + ex.getMessage());
        return ex;
    }

    /**
     * Let two racing workers run for {@code runNanos}, and on (bounded, ten times that) until {@code progressed}
     * says both sides have made progress, however they are scheduled; stop early when either worker ends (it
     * failed). Then set {@code stop} and wait for both.
     *
     * @param runNanos   the least time to run.
     * @param progressed true once both sides did what the test needs.
     * @param stop       the workers' stop flag.
     * @param first      one worker.
     * @param second     the other.
     * @throws Exception a worker's failure, or a timeout.
     */
    static void raceUntilProgress(
        final long runNanos, final BooleanSupplier progressed, final AtomicBoolean stop,
        final Future<?> first, final Future<?> second) throws Exception
    {
        final long start = System.nanoTime();
        while ((System.nanoTime() - start < runNanos ||
            !progressed.getAsBoolean() && System.nanoTime() - start < 10 * runNanos) &&
            !first.isDone() && !second.isDone())
        {
            Thread.sleep(10);
        }
        stop.set(true);
        first.get(30, TimeUnit.SECONDS);
        second.get(30, TimeUnit.SECONDS);
    }
}
