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
package io.jfabric.shm.core;

/**
 * Deliberately broken variants of the provider's concurrency mechanisms (a guard a threading model needs, dropped;
 * a CAS made a plain write; a field written after its entry is published), switched on by name for the JCStress
 * campaign, which proves with them that each of its tests can fail: a test is only worth something if it catches
 * the mistake it is there for.
 * <p>
 * The system property {@value #PROPERTY} names at most one variant; it is read once, when this class loads, and
 * each mechanism reads its switch once into a {@code static final} field, so with the property unset (always, in
 * use) the JIT folds every check away. Never set it outside the campaign: every variant is a real bug.
 * <p>
 * Any thread.
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
     * @param name a variant's name, such as {@code "guard.progress.FID"}.
     * @return whether that variant is switched on in this JVM.
     */
    public static boolean active(final String name)
    {
        return ACTIVE.equals(name);
    }

    /** @return the name of the active variant, or "" when none is. */
    public static String activeName()
    {
        return ACTIVE;
    }
}
