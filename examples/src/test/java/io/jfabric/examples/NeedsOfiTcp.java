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
package io.jfabric.examples;

import io.jfabric.testsupport.PrivateRoot;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A test class that runs examples over {@code tcp;ofi_rxm}: it needs a JDK 22+ (the build's {@code jfabric.ofi.java},
 * set where ofi-provider is built), the ofi provider's classes ({@code jfabric.ofi.classes}) and native libfabric
 * with its tcp provider. Where one is missing its tests are skipped, never passed, and one line on the build's output
 * says which class and why. libfabric is checked once, by {@link TcpProbe} in a JVM of the kind the examples run in.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(NeedsOfiTcp.Condition.class)
public @interface NeedsOfiTcp
{
    /** Skips the class, with a line saying so, when examples cannot run over tcp here. */
    final class Condition implements ExecutionCondition
    {
        private static String why;
        private static boolean checked;

        /**
         * @return the JDK 22+ java the build found.
         */
        static Path java()
        {
            return Path.of(System.getProperty("jfabric.ofi.java", ""));
        }

        /**
         * @return the ofi provider's classes.
         */
        static Path classes()
        {
            return Path.of(System.getProperty("jfabric.ofi.classes", ""));
        }

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(final ExtensionContext context)
        {
            final String reason = whyNot();
            if (reason == null)
            {
                return ConditionEvaluationResult.enabled("a JDK 22+, the ofi provider and libfabric's tcp are here");
            }
            if (context.getTestMethod().isEmpty())
            {
                System.out.println("examples: SKIPPED " + context.getDisplayName() + ": " + reason);
            }
            return ConditionEvaluationResult.disabled(reason);
        }

        private static synchronized String whyNot()
        {
            if (!checked)
            {
                checked = true;
                why = probe();
            }
            return why;
        }

        private static String probe()
        {
            if (System.getProperty("jfabric.ofi.java", "").isEmpty() || !Files.isExecutable(java()))
            {
                return "no JDK 22+ to run the ofi provider on (jfabric.ofi.java is '" +
                    System.getProperty("jfabric.ofi.java", "") + "'; the build sets it when Maven runs on a JDK 22+ " +
                    "or /usr/lib/jvm/temurin-25-jdk-amd64 is there)";
            }
            if (!Files.isDirectory(classes()))
            {
                return "the ofi provider's classes are not built (" + classes() + ")";
            }
            try (PrivateRoot root = new PrivateRoot("jfabric-examples-test-");
                ExampleJvm probe = ExampleJvm.startOnOfi("tcp probe", TcpProbe.class, root.dir()))
            {
                final int status = probe.awaitExit(120);
                return status == 0 ? null : "getinfo finds no tcp provider on " + java() + ": " +
                    String.join(" | ", probe.lines());
            }
            catch (final IOException | InterruptedException ex)
            {
                return "the tcp probe did not run: " + ex;
            }
        }
    }
}
