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
package io.jfabric.stress;

import io.jfabric.shm.core.BrokenVariant;

/**
 * Switches on, in a JCStress fork, the broken variant its test {@link Catches}: the campaign's variant run starts
 * every fork with {@code -Djfabric.stress.variant=@catches}, and each test calls {@link #arm} first thing in its
 * static initializer, before any provider class reads the property ({@code io.jfabric.shm.core.BrokenVariant} reads it
 * once, when it loads). A fork runs one test, so each test runs with its own variant. In the normal campaign the
 * property is unset and this does nothing. Called once per fork, from a static initializer.
 */
public final class Variants
{
    /** The property the provider reads (BrokenVariant.PROPERTY; not referenced, so the provider stays unloaded). */
    public static final String PROPERTY = "jfabric.stress.variant";
    /** The value that means "the variant of the test this fork runs". */
    public static final String OF_THIS_TEST = "@catches";

    private Variants()
    {
    }

    /**
     * @param test the test class this fork runs.
     */
    public static void arm(final Class<?> test)
    {
        if (OF_THIS_TEST.equals(System.getProperty(PROPERTY)))
        {
            final Catches catches = test.getAnnotation(Catches.class);
            if (catches == null)
            {
                throw new IllegalStateException(test.getName() + " has no @Catches");
            }
            System.setProperty(PROPERTY, catches.value());
        }
    }
}
