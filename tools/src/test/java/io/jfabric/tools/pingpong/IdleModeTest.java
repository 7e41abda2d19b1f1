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
package io.jfabric.tools.pingpong;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code --idle}'s values and the Agrona strategies they give.
 */
class IdleModeTest
{
    @Test
    void shouldParseEachValueIntoItsAgronaStrategy()
    {
        assertInstanceOf(BusySpinIdleStrategy.class, IdleMode.parse("busy").strategy());
        assertInstanceOf(YieldingIdleStrategy.class, IdleMode.parse("yield").strategy());
        assertInstanceOf(BackoffIdleStrategy.class, IdleMode.parse("backoff").strategy());
        assertInstanceOf(SleepingIdleStrategy.class, IdleMode.parse("Sleep").strategy());
        for (final IdleMode mode : IdleMode.values())
        {
            assertEquals(mode, IdleMode.parse(mode.cliName()));
        }
    }

    @Test
    void shouldRefuseAnyOtherValue()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> IdleMode.parse("spin"));
        assertEquals("--idle must be busy|yield|backoff|sleep, was 'spin'", ex.getMessage());
    }
}
