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

import java.nio.file.Path;
import java.util.Objects;

/**
 * One pingpong or bw run's settings, as both sides must agree on them (fi_pingpong's rule: -S and -I the same on both
 * sides; here also -W, the transfer mode, bw's window and pingpong's endpoints, which the client's hello carries and
 * the server checks),
 * plus this side's own ({@link #registered()}, {@link #keep()}, {@link #idle()}, {@link #hgrm()},
 * {@link #progress()}) and the provider's name both sides look up. Immutable; made by a {@link Builder}, the one way
 * to build it.
 */
public final class PingpongOptions
{
    /** Default seconds to wait for the peer (its address, or a completion) before giving up. */
    public static final int DEFAULT_TIMEOUT_SECONDS = 30;

    /** bw's default window: transfers in flight ({@code -w}), fabtests' default. */
    public static final int DEFAULT_WINDOW = 64;

    /** pingpong's default endpoints attached to the domain ({@code --endpoints}): the two measured ones. */
    public static final int DEFAULT_ENDPOINTS = 2;

    private final PerfTool tool;
    private final SizeList sizes;
    private final Iterations iterations;
    private final Warmup warmup;
    private final String domain;
    private final TransferMode mode;
    private final boolean verify;
    private final int timeoutSeconds;
    private final boolean registered;
    private final boolean keep;
    private final String provider;
    private final IdleMode idle;
    private final Path hgrm;
    private final Path plot;
    private final int window;
    private final boolean progress;
    private final int endpoints;

    private PingpongOptions(final Builder builder)
    {
        if (builder.endpoints < DEFAULT_ENDPOINTS)
        {
            throw new IllegalArgumentException("endpoints must be at least " + DEFAULT_ENDPOINTS + ", was " +
                builder.endpoints);
        }
        this.tool = builder.tool;
        this.sizes = Objects.requireNonNull(builder.sizes, "sizes");
        this.iterations = builder.iterations == null ? Iterations.byDefault(builder.tool) : builder.iterations;
        this.warmup = builder.warmup;
        this.domain = Objects.requireNonNull(builder.domain, "domain");
        this.mode = builder.mode;
        this.verify = builder.verify;
        this.timeoutSeconds = builder.timeoutSeconds;
        this.registered = builder.registered;
        this.keep = builder.keep;
        this.provider = builder.provider;
        this.idle = builder.idle;
        this.hgrm = builder.hgrm;
        this.plot = builder.plot;
        this.window = builder.window;
        this.progress = builder.progress;
        this.endpoints = builder.endpoints;
    }

    /**
     * @return endpoints attached to the domain during the run, the two measured ones included ({@code --endpoints}):
     * the server opens the others ({@link Crowd}).
     */
    public int endpoints()
    {
        return endpoints;
    }

    /** @return pingpong or bw. */
    public PerfTool tool()
    {
        return tool;
    }

    /** @return transfers in flight: bw's {@code -w}, 1 for pingpong. */
    public int window()
    {
        return window;
    }

    /**
     * @return true to draw the client's progress bar even when stderr is not a terminal ({@code --progress}); it is
     * drawn on a terminal anyway, once a run has lasted {@link ProgressMeter#DELAY_MILLIS}.
     */
    public boolean progress()
    {
        return progress;
    }

    /** @return the sizes to test. */
    public SizeList sizes()
    {
        return sizes;
    }

    /** @return the measured iterations of each size. */
    public Iterations iterations()
    {
        return iterations;
    }

    /** @return the unmeasured warm-up round trips before each size's measured ones. */
    public Warmup warmup()
    {
        return warmup;
    }

    /** @return the named domain. */
    public String domain()
    {
        return domain;
    }

    /** @return the transfer calls. */
    public TransferMode mode()
    {
        return mode;
    }

    /** @return true to check every received byte. */
    public boolean verify()
    {
        return verify;
    }

    /** @return seconds to wait for the peer. */
    public int timeoutSeconds()
    {
        return timeoutSeconds;
    }

    /** @return true to register the transmit buffer, so large sends go by the provider's rendezvous. */
    public boolean registered()
    {
        return registered;
    }

    /** @return true to keep the domain's region file at the end, whoever created it. */
    public boolean keep()
    {
        return keep;
    }

    /** @return the provider's name ({@code -p}). */
    public String provider()
    {
        return provider;
    }

    /** @return how this side waits after a CQ poll that found nothing. */
    public IdleMode idle()
    {
        return idle;
    }

    /**
     * @return the file the client writes the round-trip distributions to, one per size (see {@link HgrmFiles}), or
     * null for none.
     */
    public Path hgrm()
    {
        return hgrm;
    }

    /** @return the PNG the client draws every size's round-trip percentiles into ({@link PercentilePlot}), or null. */
    public Path plot()
    {
        return plot;
    }

    /**
     * @return the text the client's hello carries and the server compares with its own: every setting both sides
     * must share, short enough for one control message.
     */
    public String agreement()
    {
        return "jfabric-" + tool.cliName() + "/1 " + sizes.digest() + " " + iterations.agreement() + " " +
            warmup.agreement() + " mode=" + mode.cliName() + " verify=" + verify +
            (tool == PerfTool.BW ? " w=" + window : "") +
            (endpoints != DEFAULT_ENDPOINTS ? " endpoints=" + endpoints : "");
    }

    /**
     * Builds {@link PingpongOptions}: one setter per setting, named as its accessor, each with the command line's
     * default but the sizes and the domain, which must be set. Not thread-safe: one thread fills it and builds.
     */
    public static final class Builder
    {
        private PerfTool tool = PerfTool.PINGPONG;
        private SizeList sizes;
        private Iterations iterations;
        private Warmup warmup = Warmup.byDefault();
        private int window = 1;
        private String domain;
        private TransferMode mode = TransferMode.MSG;
        private boolean verify;
        private int timeoutSeconds = DEFAULT_TIMEOUT_SECONDS;
        private boolean registered = true;
        private boolean keep;
        private String provider = PingpongProvider.DEFAULT_NAME;
        private IdleMode idle = IdleMode.BUSY;
        private Path hgrm;
        private Path plot;
        private boolean progress;
        private int endpoints = DEFAULT_ENDPOINTS;

        /**
         * Settings with every default; set at least {@link #sizes(SizeList)} and {@link #domain(String)}.
         */
        public Builder()
        {
        }

        /**
         * @param tool pingpong (the default) or bw.
         * @return this.
         */
        public Builder tool(final PerfTool tool)
        {
            this.tool = tool;
            return this;
        }

        /**
         * @param sizes the sizes to test; no default.
         * @return this.
         */
        public Builder sizes(final SizeList sizes)
        {
            this.sizes = sizes;
            return this;
        }

        /**
         * @param iterations measured iterations per size (default {@link Iterations#byDefault} of the tool).
         * @return this.
         */
        public Builder iterations(final Iterations iterations)
        {
            this.iterations = iterations;
            return this;
        }

        /**
         * @param warmup unmeasured iterations before them (default {@link Warmup#byDefault()}).
         * @return this.
         */
        public Builder warmup(final Warmup warmup)
        {
            this.warmup = warmup;
            return this;
        }

        /**
         * @param window transfers in flight (bw's {@code -w}); 1, the default, for pingpong.
         * @return this.
         */
        public Builder window(final int window)
        {
            this.window = window;
            return this;
        }

        /**
         * @param domain the named domain both sides open; no default.
         * @return this.
         */
        public Builder domain(final String domain)
        {
            this.domain = domain;
            return this;
        }

        /**
         * @param mode the transfer calls (default {@link TransferMode#MSG}).
         * @return this.
         */
        public Builder mode(final TransferMode mode)
        {
            this.mode = mode;
            return this;
        }

        /**
         * @param verify check every received byte ({@code -c}; default false).
         * @return this.
         */
        public Builder verify(final boolean verify)
        {
            this.verify = verify;
            return this;
        }

        /**
         * @param timeoutSeconds how long to wait for the peer, in seconds (default
         *                       {@value PingpongOptions#DEFAULT_TIMEOUT_SECONDS}).
         * @return this.
         */
        public Builder timeoutSeconds(final int timeoutSeconds)
        {
            this.timeoutSeconds = timeoutSeconds;
            return this;
        }

        /**
         * @param registered register the transmit buffer (large sends by rendezvous), this side only (default true).
         * @return this.
         */
        public Builder registered(final boolean registered)
        {
            this.registered = registered;
            return this;
        }

        /**
         * @param keep keep the domain's region file at the end ({@code --keep}), this side only (default false).
         * @return this.
         */
        public Builder keep(final boolean keep)
        {
            this.keep = keep;
            return this;
        }

        /**
         * @param provider the provider's name ({@code -p}; default {@value PingpongProvider#DEFAULT_NAME}).
         * @return this.
         */
        public Builder provider(final String provider)
        {
            this.provider = provider;
            return this;
        }

        /**
         * @param idle how this side waits after an empty CQ poll ({@code --idle}; default busy).
         * @return this.
         */
        public Builder idle(final IdleMode idle)
        {
            this.idle = idle;
            return this;
        }

        /**
         * @param hgrm where the client writes each size's round-trip distribution ({@code --hgrm}), or null (the
         *             default).
         * @return this.
         */
        public Builder hgrm(final Path hgrm)
        {
            this.hgrm = hgrm;
            return this;
        }

        /**
         * @param plot where the client draws every size's percentile plot ({@code --plot}), or null (the default).
         * @return this.
         */
        public Builder plot(final Path plot)
        {
            this.plot = plot;
            return this;
        }

        /**
         * @param progress draw the client's progress bar even when stderr is not a terminal ({@code --progress};
         *                 default false).
         * @return this.
         */
        public Builder progress(final boolean progress)
        {
            this.progress = progress;
            return this;
        }

        /**
         * @param endpoints endpoints attached to the domain during the run, the two measured ones included
         *                  ({@code --endpoints}, at least {@value PingpongOptions#DEFAULT_ENDPOINTS}, the default; see
         *                  {@link Crowd}).
         * @return this.
         */
        public Builder endpoints(final int endpoints)
        {
            this.endpoints = endpoints;
            return this;
        }

        /**
         * @return the settings.
         * @throws IllegalArgumentException when the endpoints are fewer than
         *                                  {@value PingpongOptions#DEFAULT_ENDPOINTS}.
         * @throws NullPointerException     when the sizes or the domain are not set.
         */
        public PingpongOptions build()
        {
            return new PingpongOptions(this);
        }
    }
}
