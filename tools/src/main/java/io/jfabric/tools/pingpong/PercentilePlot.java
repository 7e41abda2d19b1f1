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

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --plot FILE.png}: every size's timed round trips drawn as HdrHistogram's plotter draws a distribution,
 * latency (ns, log scale) against {@code 1/(1-percentile)} (log scale: 10 is p90, 100 p99, 1000 p99.9), one line per
 * size, with JFreeChart, headless, {@value #WIDTH} x {@value #HEIGHT} pixels. Written once, after the last size's
 * timed pass. Stateless; the client's thread.
 */
final class PercentilePlot
{
    /** Width of the PNG, pixels. */
    static final int WIDTH = 1000;
    /** Height of the PNG, pixels. */
    static final int HEIGHT = 600;
    private static final int TICKS_PER_HALF_DISTANCE = 5;

    private PercentilePlot()
    {
    }

    /**
     * @param file   the PNG to write, replaced if it exists.
     * @param bySize each size's round trips in ns, in the order to draw them.
     * @throws UncheckedIOException when it cannot be written.
     */
    static void write(final Path file, final Map<Integer, Histogram> bySize)
    {
        System.setProperty("java.awt.headless", "true");
        final XYSeriesCollection data = new XYSeriesCollection();
        for (final Map.Entry<Integer, Histogram> size : bySize.entrySet())
        {
            data.addSeries(series(size.getKey() + " B", size.getValue()));
        }
        final JFreeChart chart = ChartFactory.createXYLineChart("jfabric pingpong: round-trip latency by percentile",
            "1/(1-percentile): 10 = p90, 100 = p99, 1000 = p99.9", "round trip (ns)", data,
            PlotOrientation.VERTICAL, true, false, false);
        final XYPlot plot = chart.getXYPlot();
        final LogAxis x = new LogAxis(plot.getDomainAxis().getLabel());
        x.setSmallestValue(1);
        x.setBase(10);
        x.setNumberFormatOverride(new DecimalFormat("#,##0.#", DecimalFormatSymbols.getInstance(Locale.ROOT)));
        plot.setDomainAxis(x);
        final LogAxis y = new LogAxis(plot.getRangeAxis().getLabel());
        y.setSmallestValue(1);
        y.setBase(10);
        y.setNumberFormatOverride(new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.ROOT)));
        plot.setRangeAxis(y);
        try
        {
            ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("--plot: cannot write " + file + ": " + ex.getMessage(), ex);
        }
    }

    /** The distribution's points as the .hgrm text lists them, the last (100 %) left out: 1/(1-p) is infinite. */
    private static XYSeries series(final String name, final Histogram rtt)
    {
        final XYSeries series = new XYSeries(name, false, true);
        for (final HistogramIterationValue v : rtt.percentiles(TICKS_PER_HALF_DISTANCE))
        {
            final double fraction = v.getPercentileLevelIteratedTo() / 100.0;
            if (fraction < 1.0 && v.getValueIteratedTo() > 0)
            {
                series.add(1.0 / (1.0 - fraction), (double)v.getValueIteratedTo());
            }
        }
        return series;
    }
}
