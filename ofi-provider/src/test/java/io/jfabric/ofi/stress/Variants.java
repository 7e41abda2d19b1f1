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
package io.jfabric.ofi.stress;

import io.jfabric.ofi.core.BrokenVariant;

/**
 * Switches on, in a JCStress fork of the variant run, the broken variant the fork's test is there to catch:
 * SlotPoolStressTest starts every fork with {@code -Djfabric.stress.variant=@catches} (one JCStress run for all the
 * variants), and each test's state class calls {@link #arm} with its own variant in its static initializer, before a
 * pool class loads ({@link BrokenVariant} reads the property once, when it loads). A fork runs one test, so each
 * test runs with its own variant. With the property unset (the run on the real pools) this does nothing. Called once
 * per fork, from a static initializer.
 */
public final class Variants
{
    /** The property's value that means "the variant of the test this fork runs". */
    public static final String OF_THIS_TEST = "@catches";

    private Variants()
    {
    }

    /**
     * @param variant the broken variant the calling test catches, as {@link BrokenVariant#active} takes it.
     */
    static void arm(final String variant)
    {
        if (OF_THIS_TEST.equals(System.getProperty(BrokenVariant.PROPERTY)))
        {
            System.setProperty(BrokenVariant.PROPERTY, variant);
        }
    }
}
