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

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The client's progress bar over a whole pingpong or bw run (issue 17), drawn by the progressbar library
 * (me.tongfei:progressbar) on stderr: on a terminal (the bar redrawn in place) or, with {@code --progress}, also when
 * stderr is not one (a line per second). It appears only once the run has lasted {@link #DELAY_MILLIS}, so short runs
 * print exactly what they printed without it; the server, and a quiet side, never draw one.
 * <p>
 * The measurement never waits for it: the run's thread only stores how far it has got ({@link #reached}, a release
 * store to an {@link AtomicLong}, made between batches of round trips or transfers, never inside a timed loop) and
 * which size it is at ({@link #stage}); a daemon thread of the meter's own, {@code jfabric-progress}, reads them every
 * {@link #REFRESH_MILLIS} and hands them to the bar, whose own thread renders it. Before the run prints a result line
 * ({@link #print}) the bar is taken off the line with the library's clear, and a new one is drawn on the next
 * refresh, so results and bar never share a line.
 * <p>
 * Threads: the run's thread calls {@link #reached}, {@link #stage}, {@link #print} and {@link #close}; the sampler
 * thread refreshes; the bar is touched under this object's lock only.
 */
final class ProgressMeter implements AutoCloseable
{
    /** How long a run lasts before its bar appears. */
    static final long DELAY_MILLIS = 3_000;
    /** How often the sampler hands the run's count to the bar. */
    static final long REFRESH_MILLIS = 200;
    /** How often the bar is rendered on a terminal. */
    static final int TERMINAL_RENDER_MILLIS = 200;
    /** How often the bar is printed as a line when stderr is not a terminal. */
    static final int LINE_RENDER_MILLIS = 1_000;
    /** The widest bar line when stderr is not a terminal. */
    static final int LINE_WIDTH = 100;

    private static final ProgressMeter NONE = new ProgressMeter();

    private final AtomicLong done = new AtomicLong();
    private final String task;
    private final String unit;
    private final long total;
    private final long delayNanos;
    private final int renderMillis;
    private final ProgressBarStyle style;
    private final Supplier<ProgressBarConsumer> consumers;
    private final long startNanos = System.nanoTime();
    private final Thread sampler;
    private volatile String stage = "";
    private ProgressBar bar;
    private boolean closed;

    private ProgressMeter()
    {
        task = null;
        unit = null;
        total = 0;
        delayNanos = 0;
        renderMillis = 0;
        style = null;
        consumers = null;
        sampler = null;
    }

    /**
     * A meter that draws with {@code consumers} once {@code delayMillis} have passed.
     *
     * @param task         the bar's name: the command's.
     * @param unit         what is counted, as "round trips".
     * @param total        how many in the whole run.
     * @param delayMillis  how long the run lasts before the bar appears.
     * @param renderMillis how often the library renders the bar.
     * @param style        the library's style: its colours and Unicode blocks on a terminal, ASCII in lines.
     * @param consumers    a new consumer for each bar drawn (a bar is closed to clear it, and its consumer with it).
     */
    ProgressMeter(
        final String task,
        final String unit,
        final long total,
        final long delayMillis,
        final int renderMillis,
        final ProgressBarStyle style,
        final Supplier<ProgressBarConsumer> consumers)
    {
        this.task = task;
        this.unit = unit;
        this.total = total;
        this.delayNanos = delayMillis * 1_000_000L;
        this.renderMillis = renderMillis;
        this.style = style;
        this.consumers = consumers;
        this.sampler = new Thread(this::sample, "jfabric-progress");
        sampler.setDaemon(true);
        sampler.start();
    }

    /**
     * The meter of one side of a run: a bar for the client of a run that is not quiet, when stderr is a terminal or
     * {@code --progress} was given; else one that draws nothing.
     *
     * @param options the run's settings.
     * @param role    this side.
     * @param quiet   print nothing but errors.
     * @param unit    what the run counts, as "round trips".
     * @param total   how many in the whole run.
     * @param err     where the bar goes when stderr is not a terminal (the command's error stream).
     * @return the meter, to close at the end of the run.
     */
    static ProgressMeter open(
        final PingpongOptions options,
        final Role role,
        final boolean quiet,
        final String unit,
        final long total,
        final PrintWriter err)
    {
        if (role != Role.CLIENT || quiet || total <= 0)
        {
            return NONE;
        }
        final String task = options.tool().cliName();
        if (stderrIsTerminal())
        {
            return new ProgressMeter(task, unit, total, DELAY_MILLIS, TERMINAL_RENDER_MILLIS,
                ProgressBarStyle.COLORFUL_UNICODE_BLOCK,
                () -> new ClearedConsumer(new ConsoleProgressBarConsumer(System.err), true));
        }
        if (options.progress())
        {
            return new ProgressMeter(task, unit, total, DELAY_MILLIS, LINE_RENDER_MILLIS, ProgressBarStyle.ASCII,
                () -> new ClearedConsumer(new DelegatingProgressBarConsumer(line ->
                {
                    err.print(line + "\n");
                    err.flush();
                }, LINE_WIDTH), false));
        }
        return NONE;
    }

    /**
     * @return true when this process's stderr (file descriptor 2) is a terminal, as far as Linux's /proc tells;
     * false where it cannot tell.
     */
    static boolean stderrIsTerminal()
    {
        try
        {
            final String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        }
        catch (final IOException | UnsupportedOperationException | SecurityException ex)
        {
            return false;
        }
    }

    /** @return true when this meter draws a bar once the delay has passed. */
    boolean drawing()
    {
        return sampler != null;
    }

    /**
     * How far the run has got: called by the run's thread between batches, never inside a timed loop.
     *
     * @param count round trips or transfers done so far in the whole run.
     */
    void reached(final long count)
    {
        done.lazySet(count);
    }

    /**
     * @param text what the run is at, shown after the bar (as "size 4k"); set once per size.
     */
    void stage(final String text)
    {
        if (sampler != null)
        {
            stage = text;
        }
    }

    /**
     * Print {@code text} to {@code out} with the bar off the line: it is cleared first, and drawn again on the next
     * refresh.
     *
     * @param out  where the results go.
     * @param text the lines, newlines included.
     */
    void print(final PrintWriter out, final String text)
    {
        if (sampler == null)
        {
            out.print(text);
            out.flush();
            return;
        }
        synchronized (this)
        {
            closeBar();
            out.print(text);
            out.flush();
        }
    }

    /**
     * Stop drawing: the sampler ends and the bar is cleared.
     */
    @Override
    public void close()
    {
        if (sampler == null)
        {
            return;
        }
        synchronized (this)
        {
            closed = true;
            closeBar();
        }
        sampler.interrupt();
        try
        {
            sampler.join(REFRESH_MILLIS * 10);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void sample()
    {
        while (true)
        {
            try
            {
                Thread.sleep(REFRESH_MILLIS);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            synchronized (this)
            {
                if (closed)
                {
                    return;
                }
                refresh();
            }
        }
    }

    private void refresh()
    {
        final long elapsed = System.nanoTime() - startNanos;
        if (bar == null)
        {
            if (elapsed < delayNanos)
            {
                return;
            }
            bar = new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(total)
                .setUnit(" " + unit, 1)
                .setStyle(style)
                .setUpdateIntervalMillis(renderMillis)
                .continuousUpdate()
                .startsFrom(done.get(), Duration.ofNanos(elapsed))
                .clearDisplayOnFinish()
                .setConsumer(consumers.get())
                .build();
        }
        bar.stepTo(done.get());
        bar.setExtraMessage(stage);
    }

    private void closeBar()
    {
        if (bar != null)
        {
            bar.close();
            bar = null;
        }
    }

    /**
     * A library consumer whose close leaves the line as the library's clear left it (the console consumer would
     * end it with a newline, an empty line after every result printed while a bar was up); for a consumer that
     * prints lines, clearing does nothing (there is no line to take back).
     */
    static final class ClearedConsumer implements ProgressBarConsumer
    {
        private final ProgressBarConsumer delegate;
        private final boolean clears;

        /**
         * @param delegate the library's consumer.
         * @param clears   whether the delegate redraws one line in place (a terminal), which a clear blanks.
         */
        ClearedConsumer(final ProgressBarConsumer delegate, final boolean clears)
        {
            this.delegate = delegate;
            this.clears = clears;
        }

        @Override
        public int getMaxRenderedLength()
        {
            return delegate.getMaxRenderedLength();
        }

        @Override
        public void accept(final String rendered)
        {
            delegate.accept(rendered);
        }

        @Override
        public void clear()
        {
            if (clears)
            {
                delegate.clear();
            }
        }

        @Override
        public void close()
        {
            // Not the delegate's close: its newline would stay behind on the terminal. Nothing is buffered here.
        }
    }
}
