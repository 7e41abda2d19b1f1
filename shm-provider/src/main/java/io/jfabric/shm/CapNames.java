package io.jfabric.shm;

import io.jfabric.FiType;
import io.jfabric.ToStr;

/**
 * Capability bits as text for error messages, the way fi_tostr prints them.
 */
final class CapNames
{
    private CapNames()
    {
    }

    static String of(final long caps)
    {
        return ToStr.toStr(caps, FiType.CAPS);
    }
}
