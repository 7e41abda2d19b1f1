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
package io.jfabric.shm.soak;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The soak's checker: takes what every instance wrote ({@link SoakPeerMain}'s journal of every instance, the final
 * report of each one that was still live at the end) and counts, over the whole run:
 * <ul>
 *   <li><b>corrupted</b>, <b>duplicated</b>, <b>wrong incarnation</b>: what receivers found (journal {@code bad}
 *   lines, and the reports' counters, whichever is higher), in every instance, killed ones included;</li>
 *   <li><b>lost</b>: every sequence number in a receiver's gap that its sender did not see fail (a send that
 *   completed in error, because the receiver was found gone or stopped, is no loss), in every instance; and, for
 *   each pair whose two ends were both live at the end, every send that succeeded above the last number the
 *   receiver took;</li>
 *   <li><b>delivered after error</b>: for those pairs, a number the sender saw fail and the receiver took all the
 *   same;</li>
 *   <li><b>phantom</b>: a number the receiver took above the last its (live) sender gave out;</li>
 *   <li><b>unfinished</b>: sends still outstanding when their sender quiesced; <b>unmet</b>: receivers that gave up
 *   waiting for what their live senders sent.</li>
 * </ul>
 * A pair where either end was killed is held to everything but the tail: a killed receiver's last messages are
 * legitimately lost with it, and a killed sender's last send may be partial (its receive completes with FI_EIO).
 * <p>
 * Instances are fed in with {@link #instance}; then {@link #verdict} computes. Not thread safe.
 */
final class SoakAudit
{
    /** The counts of a whole run. */
    static final class Verdict
    {
        long instances;
        long lost;
        long duplicated;
        long corrupted;
        long wrongIncarnation;
        long deliveredAfterError;
        long phantom;
        long unfinished;
        long unmet;
        long messages;
        long bytes;
        long sentOk;
        long sentFailed;
        long refused;
        long aborted;
        long livePairs;
        long restartedReceived;
        /** Sends that succeeded, by path (inject, send, segmented, rendezvous, delivery). */
        final Map<String, Long> byPath = new LinkedHashMap<>();
        final List<String> problems = new ArrayList<>();

        /** @return whether nothing was lost, duplicated, corrupted, misdelivered, unfinished or unmet. */
        boolean clean()
        {
            return lost == 0 && duplicated == 0 && corrupted == 0 && wrongIncarnation == 0 &&
                deliveredAfterError == 0 && phantom == 0 && unfinished == 0 && unmet == 0;
        }
    }

    private record Instance(long id, int logical, boolean live, List<String> journal, List<String> report)
    {
    }

    private final List<Instance> instances = new ArrayList<>();

    /**
     * Add one instance.
     *
     * @param id      its instance id.
     * @param logical the logical peer it played.
     * @param live    whether it was live at the end (not killed; it quiesced and finished).
     * @param journal its journal's lines.
     * @param report  its report's lines, null when it has none (killed).
     */
    void instance(final long id, final int logical, final boolean live, final List<String> journal,
        final List<String> report)
    {
        instances.add(new Instance(id, logical, live, journal, report));
    }

    /** @return the counts. */
    Verdict verdict()
    {
        final Verdict v = new Verdict();
        v.instances = instances.size();
        final Map<String, SeqRanges> failed = new HashMap<>();
        final Map<String, SeqRanges> gaps = new HashMap<>();
        final Map<String, Map<String, String>> sendLines = new HashMap<>();
        final Map<String, Map<String, String>> recvLines = new HashMap<>();
        final Map<Long, Instance> byId = new LinkedHashMap<>();
        final Map<Integer, Long> firstOfLogical = new HashMap<>();
        for (final Instance in : instances)
        {
            byId.put(in.id, in);
            firstOfLogical.merge(in.logical, in.id, (a, b) -> a);
        }

        for (final Instance in : instances)
        {
            long corrupted = 0;
            long duplicated = 0;
            long wrong = 0;
            long lastStatRecv = 0;
            long lastStatBytes = 0;
            long lastStatSent = 0;
            Map<String, String> lastStat = Map.of();
            for (final String line : in.journal)
            {
                final String[] w = line.split(" ");
                switch (w[0])
                {
                    case "senterr":
                        failed.computeIfAbsent(pair(in.id, Long.parseLong(w[1])), k -> new SeqRanges())
                            .add(Long.parseLong(w[2]));
                        if (!in.live)
                        {
                            v.sentFailed++;
                        }
                        break;
                    case "gap":
                        gaps.computeIfAbsent(pair(Long.parseLong(w[1]), in.id), k -> new SeqRanges())
                            .add(Long.parseLong(w[2]), Long.parseLong(w[3]));
                        break;
                    case "bad":
                        if ("corrupted".equals(w[1]))
                        {
                            corrupted++;
                        }
                        else if ("duplicate".equals(w[1]))
                        {
                            duplicated++;
                        }
                        else
                        {
                            wrong++;
                        }
                        v.problems.add(Long.toHexString(in.id) + ": " + line);
                        break;
                    case "aborted":
                        if (!in.live)
                        {
                            v.aborted++;
                        }
                        break;
                    case "unreachable":
                        if (!in.live)
                        {
                            v.refused++;
                        }
                        break;
                    case "stat":
                        final Map<String, String> s = pairs(w, 1);
                        lastStatRecv = Long.parseLong(s.get("recv"));
                        lastStatBytes = Long.parseLong(s.get("bytes"));
                        lastStatSent = Long.parseLong(s.get("sent"));
                        lastStat = s;
                        break;
                    default:
                        break;
                }
            }
            if (in.report == null)
            {
                v.messages += lastStatRecv; // a killed instance's totals as of its last stat line
                v.bytes += lastStatBytes;
                v.sentOk += lastStatSent;
                addPaths(v, lastStat);
                if (in.id != firstOfLogical.get(in.logical))
                {
                    v.restartedReceived += lastStatRecv;
                }
            }
            else
            {
                long reportDup = 0;
                long reportWrong = 0;
                long reportCorrupted = 0;
                for (final String line : in.report)
                {
                    final String[] w = line.split(" ");
                    final Map<String, String> p = pairs(w, "totals".equals(w[0]) ? 1 : 2);
                    switch (w[0])
                    {
                        case "send":
                            sendLines.put(pair(in.id, Long.parseLong(w[1])), p);
                            failed.computeIfAbsent(pair(in.id, Long.parseLong(w[1])), k -> new SeqRanges())
                                .addAll(SeqRanges.parse(p.get("failed")));
                            v.sentOk += Long.parseLong(p.get("ok"));
                            v.sentFailed += SeqRanges.parse(p.get("failed")).count();
                            break;
                        case "recv":
                            recvLines.put(pair(Long.parseLong(w[1]), in.id), p);
                            gaps.computeIfAbsent(pair(Long.parseLong(w[1]), in.id), k -> new SeqRanges())
                                .addAll(SeqRanges.parse(p.get("gaps")));
                            v.messages += Long.parseLong(p.get("count"));
                            v.bytes += Long.parseLong(p.get("bytes"));
                            if (in.id != firstOfLogical.get(in.logical))
                            {
                                v.restartedReceived += Long.parseLong(p.get("count"));
                            }
                            reportDup += Long.parseLong(p.get("dup"));
                            reportWrong += Long.parseLong(p.get("wrong"));
                            break;
                        case "totals":
                            reportCorrupted = Long.parseLong(p.get("corrupted"));
                            v.aborted += Long.parseLong(p.get("aborted"));
                            v.refused += Long.parseLong(p.get("refused"));
                            v.unfinished += Long.parseLong(p.get("unfinished"));
                            v.unmet += Long.parseLong(p.get("unmet"));
                            addPaths(v, p);
                            break;
                        default:
                            break;
                    }
                }
                duplicated = Math.max(duplicated, reportDup);
                wrong = Math.max(wrong, reportWrong);
                corrupted = Math.max(corrupted, reportCorrupted);
            }
            v.corrupted += corrupted;
            v.duplicated += duplicated;
            v.wrongIncarnation += wrong;
        }

        for (final Map.Entry<String, SeqRanges> e : gaps.entrySet())
        {
            final long unexplained = e.getValue().countNotIn(failed.getOrDefault(e.getKey(), new SeqRanges()));
            if (unexplained > 0)
            {
                v.lost += unexplained;
                v.problems.add("pair " + e.getKey() + ": " + unexplained + " missing in gaps " +
                    brief(e.getValue()) + " that did not fail (failed: " + brief(failed.get(e.getKey())) + ")");
            }
        }

        for (final Instance s : instances)
        {
            for (final Instance r : instances)
            {
                if (!s.live || !r.live || s == r || s.report == null || r.report == null)
                {
                    continue;
                }
                final String key = pair(s.id, r.id);
                final Map<String, String> send = sendLines.get(key);
                if (send == null)
                {
                    continue;
                }
                v.livePairs++;
                final Map<String, String> recv = recvLines.get(key);
                final long posted = Long.parseLong(send.get("posted"));
                final long last = recv == null ? 0 : Long.parseLong(recv.get("last"));
                final long count = recv == null ? 0 : Long.parseLong(recv.get("count"));
                final SeqRanges fail = failed.getOrDefault(key, new SeqRanges());
                final SeqRanges gap = gaps.getOrDefault(key, new SeqRanges());
                final long tail = posted > last ? posted - last - fail.countWithin(last + 1, posted) : 0;
                final long afterError = fail.countWithin(1, Math.min(last, posted)) - gap.countShared(fail);
                final long phantom = Math.max(0, last - posted);
                if (tail > 0)
                {
                    v.lost += tail;
                    v.problems.add("pair " + key + ": " + tail + " sent successfully after the last received (" +
                        last + " of " + posted + ")");
                }
                if (afterError > 0)
                {
                    v.deliveredAfterError += afterError;
                    v.problems.add("pair " + key + ": " + afterError + " received though their send failed");
                }
                if (phantom > 0)
                {
                    v.phantom += phantom;
                    v.problems.add("pair " + key + ": received up to " + last + " of " + posted + " posted");
                }
                final long ok = Long.parseLong(send.get("ok"));
                final long missing = ok - count - tail - gap.countNotIn(fail);
                if (missing != 0)
                {
                    // Not already counted as a gap or the tail: the counts themselves disagree.
                    v.problems.add("pair " + key + ": received " + count + ", sent successfully " + ok);
                    v.lost += Math.max(0, missing);
                }
            }
        }
        return v;
    }

    private static String brief(final Object ranges)
    {
        final String text = String.valueOf(ranges);
        return text.length() <= 120 ? text : text.substring(0, 120) + "...";
    }

    private static void addPaths(final Verdict v, final Map<String, String> counts)
    {
        for (final String path : new String[] { "inject", "send", "segmented", "rendezvous", "delivery" })
        {
            v.byPath.merge(path, Long.parseLong(counts.getOrDefault(path, "0")), Long::sum);
        }
    }

    private static String pair(final long sender, final long receiver)
    {
        return Long.toHexString(sender) + "->" + Long.toHexString(receiver);
    }

    private static Map<String, String> pairs(final String[] words, final int from)
    {
        final Map<String, String> p = new HashMap<>();
        for (int i = from; i < words.length; i++)
        {
            final int eq = words[i].indexOf('=');
            if (eq > 0)
            {
                p.put(words[i].substring(0, eq), words[i].substring(eq + 1));
            }
        }
        return p;
    }
}
