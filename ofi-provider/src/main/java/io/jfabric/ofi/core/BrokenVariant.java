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
package io.jfabric.ofi.core;

/**
 * Deliberately broken variants of the ofi provider's concurrency mechanisms, switched on by name for the JCStress
 * tests (as the shm provider's {@code io.jfabric.shm.core.BrokenVariant}, with the same system property), which
 * prove with them that each test can fail. Read once when this class loads; each mechanism keeps its switch in a
 * {@code static final} field, so with the property unset (always, in use) the JIT folds the checks away. Every
 * variant is a real bug: never set the property outside the stress tests. Any thread.
 */
public final class BrokenVariant
{
    /** The system property that names the active variant. */
    public static final String PROPERTY = "jfabric.stress.variant";

    private static final String ACTIVE = System.getProperty(PROPERTY, "");

    private BrokenVariant()
    {
    }

    /**
     * @param name a variant's name.
     * @return whether it is switched on in this JVM.
     */
    public static boolean active(final String name)
    {
        return ACTIVE.equals(name);
    }
}
