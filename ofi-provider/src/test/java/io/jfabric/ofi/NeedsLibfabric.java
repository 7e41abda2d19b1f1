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
package io.jfabric.ofi;

import io.jfabric.ofi.lib.Libfabric;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class that needs native libfabric: where {@code libfabric.so.1} cannot be loaded (libfabric1 not
 * installed) its tests are skipped, never passed, and one line on the build's output says which class and why.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(NeedsLibfabric.Condition.class)
public @interface NeedsLibfabric
{
    /** Skips the class, with a line saying so, when libfabric does not load. */
    final class Condition implements ExecutionCondition
    {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(final ExtensionContext context)
        {
            final String why = Libfabric.whyUnavailable();
            if (why == null)
            {
                return ConditionEvaluationResult.enabled("libfabric loads");
            }
            if (context.getTestMethod().isEmpty())
            {
                System.out.println("ofi-provider: SKIPPED " + context.getDisplayName() + ": " + why);
            }
            return ConditionEvaluationResult.disabled("libfabric is not usable here: " + why);
        }
    }
}
