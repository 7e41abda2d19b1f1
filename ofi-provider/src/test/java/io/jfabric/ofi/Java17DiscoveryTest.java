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

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The ofi provider's classes (release 22) on the class path of a Java 17 JVM, as when a Java 17 application has both
 * providers' jars: {@code jfabric info -p shm} still answers from jfabric's shm, and the ofi provider costs exactly
 * one WARNING line naming the class this Java cannot load. Runs the real tools and providers in a child JVM of the
 * first Java 17 to 21 found under /usr/lib/jvm (skipped, saying so, where there is none).
 */
class Java17DiscoveryTest
{
    @Test
    void shouldFindShmAndSkipTheOfiProviderWithOneWarningOnJava17() throws Exception
    {
        final Path java = olderJava();
        assumeTrue(java != null, "no Java 17-21 under /usr/lib/jvm");
        final String classPath = System.getProperty("java.class.path");
        assertTrue(classPath.contains("ofi-provider/target/classes"), classPath);

        final NativeTools.Result result = NativeTools.run(120, java.toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", classPath,
            "io.jfabric.tools.JfabricMain", "info", "-p", "shm");
        assertEquals(0, result.exit(), result.stderr());
        assertTrue(result.stdout().startsWith("provider: shm\n"), result.stdout());
        final List<String> warnings = result.stderr().lines().filter(l -> l.startsWith("WARNING:")).toList();
        assertEquals(1, warnings.size(), result.stderr());
        assertTrue(warnings.get(0).contains("skipping a provider this Java 17 cannot load " +
            "(UnsupportedClassVersionError)") && warnings.get(0).contains("io/jfabric/ofi/OfiProvider"),
            warnings.get(0));
    }

    private static Path olderJava() throws Exception
    {
        try (Stream<Path> jdks = Files.list(Path.of("/usr/lib/jvm")))
        {
            return jdks.sorted()
                .filter(jdk -> jdk.getFileName().toString().matches(".*(java-|jdk-?)(17|18|19|20|21)\\b.*"))
                .map(jdk -> jdk.resolve("bin/java"))
                .filter(Files::isExecutable)
                .findFirst().orElse(null);
        }
    }
}
