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
package io.jfabric.shm;

import io.jfabric.shm.config.ShmConfig;
import io.jfabric.testsupport.PrivateRoot;

import java.nio.file.Path;

/**
 * A unique root directory per test under /dev/shm (the tmpfs the provider uses), removed with everything in it
 * after the test ({@link PrivateRoot}), and providers whose root it is. Test thread only.
 */
public final class ShmTestRoot implements AutoCloseable
{
    private final PrivateRoot root = new PrivateRoot("jfabric-test-");

    /** @return the root directory; not created, so tests also cover its creation. */
    public Path dir()
    {
        return root.dir();
    }

    /**
     * @return a provider whose root directory is this one, with otherwise default settings.
     */
    public ShmProvider provider()
    {
        return provider(key -> null);
    }

    /**
     * @param settings further settings (keys without the "jfabric.shm." prefix), null for defaults.
     * @return a provider whose root directory is this one.
     */
    public ShmProvider provider(final java.util.function.UnaryOperator<String> settings)
    {
        return new ShmProvider(ShmConfig.of(key -> "dir".equals(key) ? dir().toString() : settings.apply(key)));
    }

    @Override
    public void close()
    {
        root.close();
    }
}
