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

/**
 * One pingpong or bw run's settings, as both sides must agree on them (fi_pingpong's rule: -S and -I the same on both
 * sides; here also -W, the transfer mode, bw's window and pingpong's endpoints, which the client's hello carries and
 * the server checks),
 * plus this side's own ({@link #registered()}, {@link #keep()}, {@link #idle()}, {@link #hgrm()},
 * {@link #progress()}) and the provider's name both sides look up. Immutable.
 */
public final class PingpongOptions
{
    /** fi_pingpong's default iterations ({@code -I}). */
    public static final int DEFAULT_ITERATIONS = 10;
    /** Default seconds to wait for the peer (its address, or a completion) before giving up. */
    public static final int DEFAULT_TIMEOUT_SECONDS = 30;

    /** bw's default window: transfers in flight ({@code -w}), fabtests' default. */
    public static final int DEFAULT_WINDOW = 64;

    /** pingpong's default endpoints attached to the domain ({@code --endpoints}): the two measured ones. */
    public static final int DEFAULT_ENDPOINTS = 2;

    private final PerfTool tool;
    private final SizeList sizes;
    private final int iterations;
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

    /**
     * Settings with the defaults of {@code -p} ({@value PingpongProvider#DEFAULT_NAME}), {@code --idle} (busy) and
     * {@code --hgrm} (none).
     *
     * @param sizes          the sizes to test.
     * @param iterations     measured iterations per size.
     * @param warmup         unmeasured round trips before them.
     * @param domain         the named domain both sides open.
     * @param mode           the transfer calls.
     * @param verify         check every received byte ({@code -c}).
     * @param timeoutSeconds how long to wait for the peer.
     * @param registered     register the transmit buffer (large sends by rendezvous), this side only.
     * @param keep           keep the domain's region file at the end ({@code --keep}), this side only.
     */
    public PingpongOptions(
        final SizeList sizes,
        final int iterations,
        final Warmup warmup,
        final String domain,
        final TransferMode mode,
        final boolean verify,
        final int timeoutSeconds,
        final boolean registered,
        final boolean keep)
    {
        this(sizes, iterations, warmup, domain, mode, verify, timeoutSeconds, registered, keep,
            PingpongProvider.DEFAULT_NAME, IdleMode.BUSY, null, null);
    }

    /**
     * @param sizes          the sizes to test.
     * @param iterations     measured iterations per size.
     * @param warmup         unmeasured round trips before them.
     * @param domain         the named domain both sides open.
     * @param mode           the transfer calls.
     * @param verify         check every received byte ({@code -c}).
     * @param timeoutSeconds how long to wait for the peer.
     * @param registered     register the transmit buffer (large sends by rendezvous), this side only.
     * @param keep           keep the domain's region file at the end ({@code --keep}), this side only.
     * @param provider       the provider's name ({@code -p}).
     * @param idle           how this side waits after an empty CQ poll ({@code --idle}).
     * @param hgrm           where the client writes each size's round-trip distribution ({@code --hgrm}), or null.
     * @param plot           where the client draws every size's percentile plot ({@code --plot}), or null.
     */
    public PingpongOptions(
        final SizeList sizes,
        final int iterations,
        final Warmup warmup,
        final String domain,
        final TransferMode mode,
        final boolean verify,
        final int timeoutSeconds,
        final boolean registered,
        final boolean keep,
        final String provider,
        final IdleMode idle,
        final Path hgrm,
        final Path plot)
    {
        this(PerfTool.PINGPONG, sizes, iterations, warmup, 1, domain, mode, verify, timeoutSeconds, registered, keep,
            provider, idle, hgrm, plot, false);
    }

    /**
     * @param tool           pingpong or bw.
     * @param sizes          the sizes to test.
     * @param iterations     measured iterations per size.
     * @param warmup         unmeasured iterations before them.
     * @param window         transfers in flight (bw's {@code -w}); 1 for pingpong.
     * @param domain         the named domain both sides open.
     * @param mode           the transfer calls.
     * @param verify         check every received byte ({@code -c}).
     * @param timeoutSeconds how long to wait for the peer.
     * @param registered     register the transmit buffer (large sends by rendezvous), this side only.
     * @param keep           keep the domain's region file at the end ({@code --keep}), this side only.
     * @param provider       the provider's name ({@code -p}).
     * @param idle           how this side waits after an empty CQ poll ({@code --idle}).
     * @param hgrm           where the client writes each size's round-trip distribution ({@code --hgrm}), or null.
     * @param plot           where the client draws every size's percentile plot ({@code --plot}), or null.
     * @param progress       draw the client's progress bar even when stderr is not a terminal ({@code --progress}).
     */
    public PingpongOptions(
        final PerfTool tool,
        final SizeList sizes,
        final int iterations,
        final Warmup warmup,
        final int window,
        final String domain,
        final TransferMode mode,
        final boolean verify,
        final int timeoutSeconds,
        final boolean registered,
        final boolean keep,
        final String provider,
        final IdleMode idle,
        final Path hgrm,
        final Path plot,
        final boolean progress)
    {
        this(tool, sizes, iterations, warmup, window, domain, mode, verify, timeoutSeconds, registered, keep, provider,
            idle, hgrm, plot, progress, DEFAULT_ENDPOINTS);
    }

    /**
     * @param tool           pingpong or bw.
     * @param sizes          the sizes to test.
     * @param iterations     measured iterations per size.
     * @param warmup         unmeasured iterations before them.
     * @param window         transfers in flight (bw's {@code -w}); 1 for pingpong.
     * @param domain         the named domain both sides open.
     * @param mode           the transfer calls.
     * @param verify         check every received byte ({@code -c}).
     * @param timeoutSeconds how long to wait for the peer.
     * @param registered     register the transmit buffer (large sends by rendezvous), this side only.
     * @param keep           keep the domain's region file at the end ({@code --keep}), this side only.
     * @param provider       the provider's name ({@code -p}).
     * @param idle           how this side waits after an empty CQ poll ({@code --idle}).
     * @param hgrm           where the client writes each size's round-trip distribution ({@code --hgrm}), or null.
     * @param plot           where the client draws every size's percentile plot ({@code --plot}), or null.
     * @param progress       draw the client's progress bar even when stderr is not a terminal ({@code --progress}).
     * @param endpoints      endpoints attached to the domain during the run, the two measured ones included
     *                       ({@code --endpoints}, at least {@value #DEFAULT_ENDPOINTS}; see {@link Crowd}).
     */
    public PingpongOptions(
        final PerfTool tool,
        final SizeList sizes,
        final int iterations,
        final Warmup warmup,
        final int window,
        final String domain,
        final TransferMode mode,
        final boolean verify,
        final int timeoutSeconds,
        final boolean registered,
        final boolean keep,
        final String provider,
        final IdleMode idle,
        final Path hgrm,
        final Path plot,
        final boolean progress,
        final int endpoints)
    {
        if (endpoints < DEFAULT_ENDPOINTS)
        {
            throw new IllegalArgumentException("endpoints must be at least " + DEFAULT_ENDPOINTS + ", was " +
                endpoints);
        }
        this.endpoints = endpoints;
        this.tool = tool;
        this.window = window;
        this.progress = progress;
        this.plot = plot;
        this.sizes = sizes;
        this.iterations = iterations;
        this.warmup = warmup;
        this.domain = domain;
        this.mode = mode;
        this.verify = verify;
        this.timeoutSeconds = timeoutSeconds;
        this.registered = registered;
        this.keep = keep;
        this.provider = provider;
        this.idle = idle;
        this.hgrm = hgrm;
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

    /** @return measured iterations per size. */
    public int iterations()
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
        return "jfabric-" + tool.cliName() + "/1 " + sizes.digest() + " I=" + iterations + " " +
            warmup.agreement() + " mode=" + mode.cliName() + " verify=" + verify +
            (tool == PerfTool.BW ? " w=" + window : "") +
            (endpoints != DEFAULT_ENDPOINTS ? " endpoints=" + endpoints : "");
    }
}
