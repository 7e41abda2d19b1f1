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
package io.jfabric.shm.ep;

import io.jfabric.shm.progress.Progressable;

/**
 * What the domain does when one of its endpoints is enabled or starts closing: with automatic data progress it
 * hands the endpoint to a progress agent and takes it back (and waits until the agent has left it) before the
 * endpoint releases anything. The hooks see the endpoint as what the agent drives, its {@link Progressable} side.
 * <p>
 * Threads: the endpoint's synchronized control path.
 */
public interface EndpointHooks
{
    /** Hooks that do nothing (manual progress). */
    EndpointHooks NONE = new EndpointHooks()
    {
        @Override
        public void enabled(final Progressable endpoint)
        {
        }

        @Override
        public void closing(final Progressable endpoint)
        {
        }

        @Override
        public boolean automatic()
        {
            return false;
        }
    };

    /** @return whether an agent progresses the endpoints (automatic progress) rather than their CQ and counter reads. */
    boolean automatic();

    /**
     * @param endpoint an endpoint that has just been enabled.
     */
    void enabled(Progressable endpoint);

    /**
     * @param endpoint an endpoint about to close; on return nothing else progresses it.
     */
    void closing(Progressable endpoint);
}
