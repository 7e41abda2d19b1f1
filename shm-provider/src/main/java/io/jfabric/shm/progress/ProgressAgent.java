package io.jfabric.shm.progress;

import org.agrona.concurrent.Agent;

import java.util.Arrays;

/**
 * Automatic data progress (FI_PROGRESS_AUTO): an Agrona {@link Agent} that progresses a set of endpoints on its own
 * thread, the same work a completion queue read does under manual progress.
 * <p>
 * The set is copied on change (control path) and read without a lock by the agent thread. {@link #remove} returns
 * only once the agent is no longer inside the removed object, so its owner may then release it.
 */
public final class ProgressAgent implements Agent
{
    private static final Progressable[] NONE = new Progressable[0];

    private final String name;
    private volatile Progressable[] members = NONE;
    private volatile Progressable current;

    /**
     * @param name the agent's role name (its thread's name).
     */
    public ProgressAgent(final String name)
    {
        this.name = name;
    }

    /**
     * @param p an object to progress from now on.
     */
    public synchronized void add(final Progressable p)
    {
        final Progressable[] old = members;
        final Progressable[] grown = Arrays.copyOf(old, old.length + 1);
        grown[old.length] = p;
        members = grown;
    }

    /**
     * Stop progressing an object; returns when the agent is not inside it.
     *
     * @param p the object.
     * @return objects still served.
     */
    public synchronized int remove(final Progressable p)
    {
        final Progressable[] old = members;
        int n = 0;
        final Progressable[] kept = new Progressable[old.length];
        for (final Progressable m : old)
        {
            if (m != p)
            {
                kept[n++] = m;
            }
        }
        members = n == 0 ? NONE : Arrays.copyOf(kept, n);
        while (current == p)
        {
            Thread.onSpinWait();
        }
        return n;
    }

    @Override
    public int doWork()
    {
        int work = 0;
        for (final Progressable p : members)
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
