package io.jfabric.shm.ep;

/**
 * What the domain does when one of its endpoints is enabled or starts closing: with automatic data progress it
 * hands the endpoint to a progress agent and takes it back (and waits until the agent has left it) before the
 * endpoint releases anything.
 */
public interface EndpointHooks
{
    /** Hooks that do nothing (manual progress). */
    EndpointHooks NONE = new EndpointHooks()
    {
        @Override
        public void enabled(final ShmEndpoint endpoint)
        {
        }

        @Override
        public void closing(final ShmEndpoint endpoint)
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
    void enabled(ShmEndpoint endpoint);

    /**
     * @param endpoint an endpoint about to close; on return nothing else progresses it.
     */
    void closing(ShmEndpoint endpoint);
}
