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
package io.jfabric;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Fabrics#providers()} with a provider jar this JVM cannot load on its class path, before a good one: a child
 * JVM finds the good provider, getinfo answers from it, and the bad one costs one WARNING record. The bad provider
 * is compiled here and its class file marked one Java version newer than the running JVM, which is exactly what a
 * release-22 jar (the ofi provider) is on Java 17: ServiceLoader then throws a bare UnsupportedClassVersionError
 * (a LinkageError, not a ServiceConfigurationError). The ofi module repeats this with its real jar on Java 17.
 */
class FabricsLinkageTest
{
    private static final String PROVIDER_SOURCE =
        "package p;\n" +
        "public final class %s implements io.jfabric.spi.FabricProvider {\n" +
        "  public String name() { return \"%s\"; }\n" +
        "  public int version() { return io.jfabric.Versions.version(1, 0); }\n" +
        "  public java.util.List<io.jfabric.Info> getInfo(int v, String n, String s, long f, io.jfabric.Info h) {\n" +
        "    io.jfabric.Info info = new io.jfabric.Info();\n" +
        "    info.fabricAttr().provName(name());\n" +
        "    return java.util.List.of(info);\n" +
        "  }\n" +
        "  public io.jfabric.Fabric fabric(io.jfabric.FabricAttr a, long c) { throw new UnsupportedOperationException(); }\n" +
        "}\n";

    @Test
    void shouldSkipAProviderCompiledForANewerJavaAndStillFindTheOthers(@TempDir final Path dir) throws Exception
    {
        final Path classes = compileProviders(dir);
        markNewerThanThisJvm(classes.resolve("p/TooNew.class"));
        final Path services = classes.resolve("META-INF/services/io.jfabric.spi.FabricProvider");
        Files.createDirectories(services.getParent());
        Files.writeString(services, "p.TooNew\np.StillLoads\n", StandardCharsets.US_ASCII);

        final Path out = dir.resolve("out.txt");
        final Path err = dir.resolve("err.txt");
        final String java = ProcessHandle.current().info().command().orElseThrow();
        final Process child = new ProcessBuilder(java, "-cp",
            System.getProperty("java.class.path") + File.pathSeparator + classes, ProvidersMain.class.getName(),
            "fine")
            .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
        final String stdout = Files.readString(out);
        final String stderr = Files.readString(err);
        assertEquals(0, child.exitValue(), () -> "stdout:\n" + stdout + "stderr:\n" + stderr);
        assertEquals("provider: fine\ninfo: fine\n", stdout, stderr);

        final List<String> warnings = new ArrayList<>();
        for (final String line : stderr.split("\n"))
        {
            if (line.startsWith("WARNING:"))
            {
                warnings.add(line);
            }
        }
        assertEquals(1, warnings.size(), stderr);
        final String warning = warnings.get(0);
        assertTrue(warning.contains("skipping a provider this Java " + Runtime.version().feature() + " cannot load"),
            warning);
        assertTrue(warning.contains("UnsupportedClassVersionError") && warning.contains("p/TooNew"), warning);
    }

    private static Path compileProviders(final Path dir) throws IOException, InterruptedException
    {
        final Path src = dir.resolve("src/p");
        Files.createDirectories(src);
        final Path tooNew = src.resolve("TooNew.java");
        final Path stillLoads = src.resolve("StillLoads.java");
        Files.writeString(tooNew, String.format(PROVIDER_SOURCE, "TooNew", "toonew"));
        Files.writeString(stillLoads, String.format(PROVIDER_SOURCE, "StillLoads", "fine"));
        final Path classes = dir.resolve("classes");
        final Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
        final Process process = new ProcessBuilder(javac.toString(), "-d", classes.toString(),
            "-cp", System.getProperty("java.class.path"), tooNew.toString(), stillLoads.toString())
            .redirectErrorStream(true).redirectOutput(dir.resolve("javac.txt").toFile()).start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "javac did not finish");
        assertEquals(0, process.exitValue(), () -> "javac: " + read(dir.resolve("javac.txt")));
        return classes;
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
    }

    /** Class file bytes 6-7 are the major version: Java N reads up to 44 + N. */
    private static void markNewerThanThisJvm(final Path classFile) throws IOException
    {
        final byte[] bytes = Files.readAllBytes(classFile);
        final int major = 44 + Runtime.version().feature() + 1;
        bytes[6] = (byte)(major >> 8);
        bytes[7] = (byte)major;
        Files.write(classFile, bytes);
    }
}
