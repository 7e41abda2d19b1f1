package io.jfabric.shm.eq;

import io.jfabric.FidClass;
import io.jfabric.shm.FidLifecycle;

import java.util.Map;
import io.jfabric.shm.ShmConfig;

/**
 * The smallest real parent an event queue can be opened from: a fabric-class {@link FidLifecycle} that holds no
 * resources, so the queue's reference counting on its fabric is exercised without the whole provider.
 */
final class TestFabricFid extends FidLifecycle
{
    TestFabricFid()
    {
        super(FidClass.FABRIC, 0);
    }

    @Override
    protected void doClose()
    {
    }

    /**
     * @param eqSize default and largest EQ depth.
     * @param maxErrData error data kept per error.
     * @return a configuration with those two settings and every other default.
     */
    static ShmConfig config(final int eqSize, final int maxErrData)
    {
        final Map<String, String> settings = Map.of(
            "eq.size", Integer.toString(eqSize),
            "max.err.data", Integer.toString(maxErrData));
        return ShmConfig.of(settings::get);
    }
}
