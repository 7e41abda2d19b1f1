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

import org.agrona.concurrent.Agent;


/**
 * Automatic data progress (FI_PROGRESS_AUTO): an Agrona {@link Agent} that progresses a set of endpoints on its own
 * thread, the same work a completion queue read does under manual progress.
 * <p>
 * The set is copied on change (control path) and read without a lock by the agent thread. {@link #remove} returns
 * only once the agent is no longer inside the removed object, so its owner may then release it.
 */
final class ProgressAgent implements Agent
{
    private final String name;
    private final ProgressableSet members = new ProgressableSet();
    private volatile Progressable current;

    /**
     * @param name the agent's role name (its thread's name).
     */
    ProgressAgent(final String name)
    {
        this.name = name;
    }

    /**
     * @param p an object to progress from now on.
     */
    public void add(final Progressable p)
    {
        members.add(p);
    }

    /**
     * Stop progressing an object; returns when the agent is not inside it.
     *
     * @param p the object.
     * @return objects still served.
     */
    public int remove(final Progressable p)
    {
        final int left = members.remove(p);
        while (current == p)
        {
            Thread.onSpinWait();
        }
        return left;
    }

    @Override
    public int doWork()
    {
        int work = 0;
        for (final Progressable p : members.members())
        {
            current = p;
            work += p.progress();
        }
        current = null;
        return work;
    }

    @Override
    public String roleName()
    {
        return name;
    }
}
