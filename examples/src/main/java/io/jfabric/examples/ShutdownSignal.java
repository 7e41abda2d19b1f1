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
package io.jfabric.examples;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C (SIGINT) and SIGTERM as a flag the example's loop polls, so the loop ends and its try-with-resources
 * closes the endpoint, CQ, AV, domain and fabric before the JVM exits. Without this the JVM would exit from under
 * the loop and nothing would be closed: peers still notice (the process is gone, so their sends fail with
 * FI_EHOSTUNREACH), but a clean close is quicker for them and runs the close path an application should test.
 * <p>
 * {@link #register()} and {@link #closed()} are called by the example's main thread; the hook runs on the JVM's
 * shutdown thread and waits (at most two seconds) until the main thread has called {@link #closed()}.
 */
public final class ShutdownSignal
{
    private static final long CLOSE_WAIT_MS = 2_000;

    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile boolean running = true;

    private ShutdownSignal()
    {
    }

    /**
     * @return a signal whose flag drops when the JVM starts shutting down.
     */
    public static ShutdownSignal register()
    {
        final ShutdownSignal signal = new ShutdownSignal();
        Runtime.getRuntime().addShutdownHook(new Thread(signal::onShutdown, "example-shutdown"));
        return signal;
    }

    /**
     * @return false once Ctrl-C or SIGTERM arrived: leave the loop.
     */
    public boolean running()
    {
        return running;
    }

    /**
     * The main thread has closed everything (call it in a finally, after the try-with-resources): a shutdown under
     * way may go on.
     */
    public void closed()
    {
        closed.countDown();
    }

    private void onShutdown()
    {
        running = false;
        try
        {
            closed.await(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
