package io.jfabric.shm.progress;

/**
 * Something the provider progresses: an endpoint drains its receive lanes, matches and completes messages, and
 * pushes the pieces of large sends. Called by completion queue and counter reads (manual progress) or by a
 * {@link ProgressAgent} (automatic progress).
 */
public interface Progressable
{
    /**
     * Do the work that is ready, without blocking; returns at once if another thread is progressing this object.
     *
     * @return units of work done, 0 when there was none.
     */
    int progress();
}
