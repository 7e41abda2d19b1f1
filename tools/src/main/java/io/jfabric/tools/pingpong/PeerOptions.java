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

import io.jfabric.FabricException;
import io.jfabric.shm.region.RegionFile;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * The options {@code jfabric pingpong} and {@code jfabric bw} share (a picocli mixin): the provider, which side this
 * is and how it meets the other ({@code --self}, {@code --role}, {@code --domain}, {@code --timeout}), how it waits
 * ({@code --idle}), the transmit buffer's registration, {@code -c}, {@code --keep}, {@code --progress} and the hidden
 * {@code --quiet} of the server {@code --self} starts; with the checks of their values, which throw picocli's
 * {@link ParameterException} (exit status 1). The command's thread.
 */
public final class PeerOptions
{
    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = {"-p", "--provider"}, paramLabel = "PROV",
        description = "the provider, found with fi_getinfo as 'jfabric info -p' finds it " +
            "(default: ${DEFAULT-VALUE}); none of that name: exit 61 (FI_ENODATA)")
    private String provider = PingpongProvider.DEFAULT_NAME;

    @Option(names = "-c", description = "check every received byte (slows the run, as in fi_pingpong)")
    private boolean verify;

    @Option(names = "--self", description = "start the server JVM too, and be the client")
    private boolean self;

    @Option(names = "--role", paramLabel = "server|client", description = "which side this is, without --self")
    private String role;

    @Option(names = "--domain", paramLabel = "NAME",
        description = "the named domain both sides open (default: the command's name, as pingpong, and with --self " +
            "-<pid> after it)")
    private String domain;

    @Option(names = "--unregistered",
        description = "do not register the send buffer: large messages are segmented instead of going by rendezvous")
    private boolean unregistered;

    @Option(names = "--idle", paramLabel = IdleMode.NAMES,
        description = "how each side waits after a poll that found nothing: busy spin (the default, for " +
            "latency), yield, backoff (spin, yield, then park 1-50 us) or sleep (park 50 us)")
    private String idle;

    @Option(names = "--keep",
        description = "keep the domain's region file at the end (default: delete it, however the run ends)")
    private boolean keep;

    @Option(names = "--timeout", paramLabel = "SECONDS",
        description = "give up when the peer does not show up or answer within this (default: ${DEFAULT-VALUE})")
    private int timeoutSeconds = PingpongOptions.DEFAULT_TIMEOUT_SECONDS;

    @Option(names = "--progress",
        description = "draw the client's progress bar on stderr even when it is not a terminal (on a terminal it is " +
            "drawn anyway once a run has lasted " + ProgressMeter.DELAY_MILLIS / 1000 + " s)")
    private boolean progress;

    @Option(names = "--quiet", hidden = true, description = "print nothing but errors (the server --self starts)")
    private boolean quiet;

    /**
     * Not for use: picocli instantiates the mixin.
     */
    public PeerOptions()
    {
    }

    /** @return {@code -p}, checked to name something. */
    String provider()
    {
        if (provider.isBlank())
        {
            throw new ParameterException(spec.commandLine(), "-p must name a provider");
        }
        return provider;
    }

    /** @return {@code -c}. */
    boolean verify()
    {
        return verify;
    }

    /** @return {@code --domain} as given, or null. */
    String domainOption()
    {
        return domain;
    }

    /** @return {@code --self}. */
    boolean self()
    {
        return self;
    }

    /** @return {@code --quiet}. */
    boolean quiet()
    {
        return quiet;
    }

    /** @return not {@code --unregistered}. */
    boolean registered()
    {
        return !unregistered;
    }

    /** @return {@code --timeout}, checked. */
    int timeoutSeconds()
    {
        if (timeoutSeconds < 1)
        {
            throw new ParameterException(spec.commandLine(), "--timeout must be at least 1, was " + timeoutSeconds);
        }
        return timeoutSeconds;
    }

    /** @return {@code --idle}, busy by default. */
    IdleMode idle()
    {
        try
        {
            return idle == null ? IdleMode.BUSY : IdleMode.parse(idle);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
    }

    /**
     * @param tool the command.
     * @return {@code --domain}, or the command's default: its name, with {@code -<pid>} after it with {@code --self}.
     */
    String domain(final PerfTool tool)
    {
        final String name = domain != null ? domain :
            self ? tool.cliName() + "-" + ProcessHandle.current().pid() : tool.cliName();
        try
        {
            RegionFile.validateDomainName(name);
        }
        catch (final FabricException ex)
        {
            throw new ParameterException(spec.commandLine(), "--domain: " + ex.getMessage());
        }
        return name;
    }

    /**
     * A value the command parses from its own options ({@code -S}, {@code -W}), with what the parser refuses made a
     * usage error.
     *
     * @param parse parses the value, throwing {@link IllegalArgumentException} with the reason.
     * @param <T>   the value's type.
     * @return the value.
     * @throws ParameterException with the parser's reason.
     */
    <T> T parsed(final Supplier<T> parse)
    {
        try
        {
            return parse.get();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
    }

    /**
     * The settings of a run that come from this mixin alone, read as the commands read them last: {@code --idle},
     * then {@code --domain} (both checked), with {@code -c}, {@code --unregistered}, {@code --keep} and
     * {@code --progress}. The command sets the rest, {@code --timeout} and {@code -p} among them.
     *
     * @param tool the command.
     * @return a builder of the run's settings with this mixin's in it.
     * @throws ParameterException for a usage error.
     */
    PingpongOptions.Builder settings(final PerfTool tool)
    {
        return new PingpongOptions.Builder()
            .tool(tool)
            .idle(idle())
            .domain(domain(tool))
            .verify(verify)
            .registered(registered())
            .keep(keep)
            .progress(progress);
    }

    /** @return this side: the client with {@code --self}, else {@code --role}'s. */
    Role side()
    {
        if (self && role != null)
        {
            throw new ParameterException(spec.commandLine(), "--self and --role exclude each other");
        }
        if (self)
        {
            return Role.CLIENT;
        }
        if (role == null)
        {
            throw new ParameterException(spec.commandLine(),
                "give --self, or run one side with --role server and the other with --role client");
        }
        for (final Role candidate : Role.values())
        {
            if (candidate.cliName().equals(role.toLowerCase(Locale.ROOT)))
            {
                return candidate;
            }
        }
        throw new ParameterException(spec.commandLine(), "--role must be server or client, was '" + role + "'");
    }
}
