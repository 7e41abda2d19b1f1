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
package io.jfabric.testsupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The start of a command line that runs a second JVM for a test: a java binary, the export every JVM that loads
 * Agrona needs ({@link #AGRONA_EXPORT}), and flags for a quick start (a child that lives seconds gains nothing from
 * the optimizing compiler or a parallel collector). Callers add their own properties, {@code -cp} and main class.
 * <p>
 * Stateless; any thread.
 */
public final class JvmCommand
{
    /** The flag and value every JVM that loads Agrona 2.x needs. */
    public static final List<String> AGRONA_EXPORT =
        List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED");

    /** Flags for a quick start. */
    public static final List<String> QUICK_START =
        List.of("-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private JvmCommand()
    {
    }

    /**
     * @return this JVM's java binary.
     */
    public static String java()
    {
        return ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * @return a new, modifiable list: this JVM's java binary, {@link #AGRONA_EXPORT}, {@link #QUICK_START}.
     */
    public static List<String> quickStart()
    {
        return quickStart(java());
    }

    /**
     * @param java the java binary (another JDK's, for one).
     * @return a new, modifiable list: that binary, {@link #AGRONA_EXPORT}, {@link #QUICK_START}.
     */
    public static List<String> quickStart(final String java)
    {
        final List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(AGRONA_EXPORT);
        command.addAll(QUICK_START);
        return command;
    }

    /**
     * @return {@code -cp} and this JVM's class path.
     */
    public static List<String> classPath()
    {
        return List.of("-cp", System.getProperty("java.class.path"));
    }
}
