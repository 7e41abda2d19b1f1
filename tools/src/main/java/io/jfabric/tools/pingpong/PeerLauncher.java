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
package io.jfabric.tools.pingpong;

import io.jfabric.tools.JfabricMain;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Starts the server side of {@code pingpong --self} and {@code bw --self}: a second JVM with this JVM's java binary,
 * JVM options (the Agrona export among them, added if absent), class path and {@code jfabric.*} system properties (so
 * it opens the same root directory with the same region geometry), running {@code jfabric pingpong --role server
 * --quiet} (or {@code bw ...}) with this run's settings (the provider, idle mode, window and endpoints too; not
 * {@code --hgrm}, {@code --plot} or {@code --progress}, which are the client's). Its standard streams are this
 * process's, so its errors show. Setup thread only.
 */
final class PeerLauncher
{
    /** The export Agrona 2.x needs in every JVM that loads it. */
    static final String AGRONA_EXPORT = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";

    private PeerLauncher()
    {
    }

    /**
     * @param options the run's settings.
     * @return the server's command line.
     */
    static List<String> command(final PingpongOptions options)
    {
        return command(
            ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()),
            ManagementFactory.getRuntimeMXBean().getInputArguments(),
            System.getProperty("java.class.path"),
            System.getProperties(),
            options);
    }

    /**
     * The server's command line from explicit parts, for tests.
     *
     * @param java       the java binary.
     * @param jvmOptions this JVM's options (their jfabric and Agrona properties are replaced by {@code properties}).
     * @param classPath  the class path.
     * @param properties system properties; the {@code jfabric.*} ones are passed on.
     * @param options    the run's settings.
     * @return the command.
     */
    static List<String> command(
        final String java,
        final List<String> jvmOptions,
        final String classPath,
        final Properties properties,
        final PingpongOptions options)
    {
        final List<String> command = new ArrayList<>();
        command.add(java);
        boolean exported = false;
        for (final String option : jvmOptions)
        {
            if (option.startsWith("-Djfabric.") || option.startsWith("-Dagrona.") ||
                option.startsWith("-agentlib:jdwp") || option.startsWith("-Xrunjdwp") ||
                option.startsWith("-javaagent:") || option.startsWith("-Xdebug"))
            {
                continue; // jfabric's and Agrona's settings come below; a debugger's port or an agent would collide.
            }
            exported |= option.contains("java.base/jdk.internal.misc=ALL-UNNAMED");
            command.add(option);
        }
        if (!exported)
        {
            command.add(AGRONA_EXPORT);
        }
        for (final Map.Entry<Object, Object> property : properties.entrySet())
        {
            final String key = String.valueOf(property.getKey());
            if (key.startsWith("jfabric.") || key.startsWith("agrona."))
            {
                command.add("-D" + key + "=" + property.getValue());
            }
        }
        command.add("-cp");
        command.add(classPath);
        command.add(JfabricMain.class.getName());
        command.add(options.tool().cliName());
        command.add("--role");
        command.add(Role.SERVER.cliName());
        command.add("--quiet");
        command.add("--domain");
        command.add(options.domain());
        if (!PingpongProvider.DEFAULT_NAME.equals(options.provider()))
        {
            command.add("-p");
            command.add(options.provider());
        }
        if (options.idle() != IdleMode.BUSY)
        {
            command.add("--idle");
            command.add(options.idle().cliName());
        }
        if (options.sizes().spec() != null)
        {
            command.add("-S");
            command.add(options.sizes().spec());
        }
        if (options.iterations().option() != null)
        {
            command.add("-I");
            command.add(Integer.toString(options.iterations().option()));
        }
        if (options.warmup().option() != null)
        {
            command.add("-W");
            command.add(Integer.toString(options.warmup().option()));
        }
        if (options.mode() != TransferMode.MSG)
        {
            if (options.tool() == PerfTool.PINGPONG && options.mode().option() != null)
            {
                command.add(options.mode().option());
            }
            else
            {
                command.add("-o");
                command.add(options.mode().cliName());
            }
        }
        if (options.tool() == PerfTool.BW && options.window() != PingpongOptions.DEFAULT_WINDOW)
        {
            command.add("-w");
            command.add(Integer.toString(options.window()));
        }
        if (options.endpoints() != PingpongOptions.DEFAULT_ENDPOINTS)
        {
            command.add("--endpoints");
            command.add(Integer.toString(options.endpoints()));
        }
        if (options.verify())
        {
            command.add("-c");
        }
        if (!options.registered())
        {
            command.add("--unregistered");
        }
        if (options.keep())
        {
            command.add("--keep");
        }
        command.add("--timeout");
        command.add(Integer.toString(options.timeoutSeconds()));
        return command;
    }

    /**
     * @param options the run's settings.
     * @return the started server, sharing this process's standard streams.
     * @throws IOException when it cannot be started.
     */
    static Process start(final PingpongOptions options) throws IOException
    {
        return new ProcessBuilder(command(options)).inheritIO().start();
    }
}
