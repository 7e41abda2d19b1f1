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
package io.jfabric.shm.eq;

import io.jfabric.FidClass;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.shm.core.FidLifecycle;

import java.util.Map;

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
