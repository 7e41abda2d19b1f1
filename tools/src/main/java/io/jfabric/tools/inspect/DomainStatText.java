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
package io.jfabric.tools.inspect;

import io.jfabric.shm.stat.DomainStat;
import io.jfabric.shm.stat.PathCounts;
import io.jfabric.shm.stat.RegionUser;
import io.jfabric.shm.stat.RingStat;
import io.jfabric.shm.stat.SlotStat;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Prints a {@link DomainStat} as {@code jfabric stat} and {@code jfabric dump} show it: one labelled line per fact,
 * the header and user table first, then every slot in use with its sends and rings. With a previous sample the
 * send counts carry their growth since it, and with high-water marks each ring its mark.
 * <p>
 * The command's thread only.
 */
final class DomainStatText
{
    private final PrintWriter out;

    /**
     * @param out where the text goes.
     */
    DomainStatText(final PrintWriter out)
    {
        this.out = out;
    }

    /**
     * Print the region's header, then its users.
     *
     * @param stat the sample.
     */
    void header(final DomainStat stat)
    {
        line("region", String.format(Locale.ROOT, "layout %d, nonce %s, inode %d, %s", stat.layoutVersion(),
            Text.hex(stat.regionNonce()), stat.inode(), Text.size(stat.fileLength())));
        line("created", Text.instant(stat.creationTimeMs()) + " (age " + Text.duration(stat.ageMs()) +
            ") by process " + stat.creatorPid() + ", which started " + Text.instant(stat.creatorStartTimeMs()));
        line("geometry", String.format(Locale.ROOT, "%d slots; lanes %d B, tx ring %d B, cq ring %d B; " +
            "%d key entries, %d counter entries", stat.geometry().slotCount(), stat.geometry().rxRingBytes(),
            stat.geometry().txRingBytes(), stat.geometry().cqRingBytes(), stat.geometry().mrTableEntries(),
            stat.geometry().counterEntries()));
        final long live = stat.users().stream().filter(RegionUser::alive).count();
        line("attached", stat.attachCount() + " opens so far; users now: " + live + " live, " +
            (stat.users().size() - live) + " gone");
        users(stat);
    }

    /**
     * Print the user table's entries in use, and the remover when there is one.
     *
     * @param stat the sample.
     */
    void users(final DomainStat stat)
    {
        for (final RegionUser user : stat.users())
        {
            line("user " + user.entry(), Text.processInFull(user.identity(), user.alive()));
        }
        if (stat.remover() != 0)
        {
            line("remover", Text.process(stat.remover(), true) + " is removing the region (jfabric clean)");
        }
    }

    /**
     * Print every slot in use.
     *
     * @param stat     the sample.
     * @param previous the sample before it, or null.
     * @param marks    high-water marks that include this sample, or null.
     */
    void slots(final DomainStat stat, final DomainStat previous, final HighWaterMarks marks)
    {
        if (stat.slots().isEmpty())
        {
            line("slots", "none in use");
        }
        for (final SlotStat slot : stat.slots())
        {
            final SlotStat before = null == previous ? null : previous.slot(slot.slot());
            slot(stat, slot, before != null && before.incarnation() == slot.incarnation() ? before : null, marks);
        }
    }

    private void slot(final DomainStat stat, final SlotStat slot, final SlotStat before, final HighWaterMarks marks)
    {
        if (!slot.hasEndpoint())
        {
            line("slot " + slot.slot(), slot.stateName() + ", no endpoint");
        }
        else
        {
            line("slot " + slot.slot(), slot.stateName() + " gen " + slot.incarnation() + ", " +
                Text.process(slot.owner(), slot.ownerAlive()) + ", heartbeat " +
                (slot.heartbeatMs() == 0 ? "never" : Text.duration(stat.sampledAtMs() - slot.heartbeatMs()) + " ago"));
            detail("address", slot.address());
            detail("sends", sends(slot.sends(), null == before ? null : before.sends()));
            if (slot.damaged() != 0)
            {
                detail("damaged", count(slot.damaged(), null == before ? -1 : before.damaged()) +
                    " records dropped from its receive lanes");
            }
            for (final RingStat lane : slot.lanes())
            {
                detail(lane.key(), ring(slot, lane, marks) + ", from slot " + lane.sender() +
                    (lane.senderIncarnation() == 0 ? " (no sender holds it)" : " gen " + lane.senderIncarnation()));
            }
            detail(slot.transmitRing().key(), ring(slot, slot.transmitRing(), marks));
        }
        detail(slot.completionRing().key(), ring(slot, slot.completionRing(), marks) + ", " +
            (slot.cqOwner() == 0 ? "no completion queue" :
            "completion queue of " + Text.process(slot.cqOwner(), slot.cqOwnerAlive())));
    }

    private static String sends(final PathCounts now, final PathCounts before)
    {
        return "inline " + count(now.inline(), null == before ? -1 : before.inline()) +
            ", queued " + count(now.queued(), null == before ? -1 : before.queued()) +
            ", segmented " + count(now.segmented(), null == before ? -1 : before.segmented()) +
            ", rendezvous " + count(now.rendezvous(), null == before ? -1 : before.rendezvous()) +
            ", claimed " + count(now.claimed(), null == before ? -1 : before.claimed());
    }

    private static String count(final long now, final long before)
    {
        return before < 0 ? Long.toString(now) : now + " (+" + (now - before) + ")";
    }

    private static String ring(final SlotStat slot, final RingStat ring, final HighWaterMarks marks)
    {
        return String.format(Locale.ROOT, "%d of %d B (%.1f%%)%s", ring.occupancy(), ring.capacity(),
            100.0 * ring.occupancy() / ring.capacity(),
            null == marks ? "" : ", high " + marks.high(slot, ring) + " B");
    }

    /**
     * @param label what the line is about.
     * @param text  the line.
     */
    void line(final String label, final String text)
    {
        out.print(String.format(Locale.ROOT, "  %-10s %s%n", label, text));
    }

    private void detail(final String label, final String text)
    {
        out.print(String.format(Locale.ROOT, "             %-10s %s%n", label, text));
    }
}
