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
package io.jfabric.shm.progress;

import io.jfabric.shm.config.ShmConfig;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The progress agent threads of one domain under automatic data progress: one {@link AgentRunner} for the whole
 * domain ({@code jfabric.shm.progress.agent=domain}, the default) or one per endpoint ({@code endpoint}), each
 * with the idle strategy {@code jfabric.shm.progress.idle} names. Threads start with the first endpoint they serve
 * and stop with the last one, or at domain close. Daemon threads, named {@code jfabric-progress-<domain>[-ep<n>]}.
 * <p>
 * Control path; thread safe.
 */
public final class ProgressRunners implements AutoCloseable
{
    /** Where a progress agent's failures go ({@code System.Logger} "io.jfabric.shm.progress"), not stderr. */
    private static final System.Logger LOGGER = System.getLogger("io.jfabric.shm.progress");

    private final String domainName;
    private final ShmConfig config;
    private final boolean perEndpoint;
    private final Map<Progressable, Runner> byMember = new IdentityHashMap<>();
    private Runner shared;
    private int serial;

    /**
     * @param domainName the domain's name, for thread names.
     * @param config     the provider configuration.
     */
    public ProgressRunners(final String domainName, final ShmConfig config)
    {
        this.domainName = domainName;
        this.config = config;
        this.perEndpoint = "endpoint".equals(config.progressAgent());
    }

    /**
     * @param p an enabled endpoint to progress.
     */
    public synchronized void add(final Progressable p)
    {
        Runner r;
        if (perEndpoint)
        {
            r = new Runner("jfabric-progress-" + domainName + "-ep" + (serial++));
        }
        else
        {
            if (shared == null)
            {
                shared = new Runner("jfabric-progress-" + domainName);
            }
            r = shared;
        }
        r.agent.add(p);
        r.members++;
        byMember.put(p, r);
    }

    /**
     * @param p an endpoint about to close; returns when no agent is inside it.
     */
    public void remove(final Progressable p)
    {
        final Runner r;
        synchronized (this)
        {
            r = byMember.remove(p);
        }
        if (r == null)
        {
            return;
        }
        r.agent.remove(p);
        synchronized (this)
        {
            if (--r.members == 0)
            {
                if (r == shared)
                {
                    shared = null;
                }
                r.runner.close();
            }
        }
    }

    @Override
    public synchronized void close()
    {
        for (final Runner r : byMember.values())
        {
            r.runner.close();
        }
        byMember.clear();
        shared = null;
    }

    private IdleStrategy idleStrategy()
    {
        final long sleepNs = config.progressSleepNs();
        switch (config.progressIdle())
        {
            case "busy":
                return new BusySpinIdleStrategy();
            case "yield":
                return new YieldingIdleStrategy();
            case "sleep":
                return new SleepingIdleStrategy(sleepNs);
            default:
                return new BackoffIdleStrategy(100, 100, Math.min(1_000, sleepNs), sleepNs);
        }
    }

    private final class Runner
    {
        final ProgressAgent agent;
        final AgentRunner runner;
        int members;

        Runner(final String name)
        {
            agent = new ProgressAgent(name);
            final ErrorHandler errors = (ex) -> LOGGER.log(System.Logger.Level.ERROR,
                "jfabric progress agent " + name + " failed in a pass over its endpoints; it goes on", ex);
            runner = new AgentRunner(idleStrategy(), errors, null, agent);
            final Thread t = new Thread(runner, name);
            t.setDaemon(true);
            t.start();
        }
    }
}
