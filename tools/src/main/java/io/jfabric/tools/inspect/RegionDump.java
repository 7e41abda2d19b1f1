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

import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.shm.cntr.CounterTableDescriptor;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.mr.MrTableDescriptor;
import io.jfabric.shm.region.InspectedFile;
import io.jfabric.shm.region.RegionDescriptor;
import io.jfabric.shm.region.RegionFile;
import io.jfabric.shm.region.RegionGeometry;
import io.jfabric.shm.region.RegionHeader;
import io.jfabric.shm.stat.DomainStat;
import io.jfabric.shm.stat.RegionImage;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.PrintWriter;
import java.util.Locale;

import static io.jfabric.shm.region.RegionDescriptor.*;

/**
 * {@code jfabric dump} of a domain region ({@link RegionDescriptor}): every header field, then the user table and
 * the slots in use as {@code jfabric stat} shows them, then the entries in use of the memory region key table
 * ({@link MrTableDescriptor}) and of the counter table ({@link CounterTableDescriptor}). The command's thread only.
 */
final class RegionDump implements FileDump
{
    private static final String[] MR_STATES = {"empty", "claimed", "published", "free"};

    @Override
    public int headerLength()
    {
        return HEADER_LENGTH;
    }

    @Override
    public void fields(final FieldListing fields)
    {
        fields.magic(MAGIC_OFFSET)
            .intField(LAYOUT_VERSION_OFFSET, "layout version")
            .intField(HEADER_LENGTH_OFFSET, "header length")
            .longField(REGION_LENGTH_OFFSET, "region length")
            .intField(SLOT_COUNT_OFFSET, "slot count")
            .intField(RX_RING_BYTES_OFFSET, "rx ring bytes")
            .intField(TX_RING_BYTES_OFFSET, "tx ring bytes")
            .intField(CQ_RING_BYTES_OFFSET, "cq ring bytes")
            .intField(MR_TABLE_ENTRIES_OFFSET, "mr table entries")
            .intField(COUNTER_ENTRIES_OFFSET, "counter entries")
            .longField(CREATOR_PID_OFFSET, "creator pid")
            .instant(CREATOR_START_TIME_OFFSET, "creator start time")
            .instant(CREATION_TIME_OFFSET, "creation time")
            .hexLong(REGION_NONCE_OFFSET, "region nonce")
            .text(NAME_LENGTH_OFFSET, NAME_OFFSET, NAME_CAPACITY, "domain name")
            .checksum(CHECKSUM_OFFSET, "checksum")
            .intField(READY_OFFSET, "ready")
            .longField(ATTACH_COUNT_OFFSET, "attach count")
            .identity(MR_TABLE_LOCK_OFFSET, "mr table lock")
            .longField(MR_KEY_SEQUENCE_OFFSET, "provider key sequence")
            .identity(REMOVER_OFFSET, "remover");
    }

    @Override
    public void verify(final InspectedFile file, final UnsafeBuffer header)
    {
        final RegionHeader region = new RegionHeader(header);
        region.verifyInspected(file.source());
        final String name = file.path().getFileName().toString();
        final String expected = region.domainName() + RegionFile.FILE_SUFFIX;
        if (name.endsWith(RegionFile.FILE_SUFFIX) && !name.equals(expected))
        {
            throw new FabricException(Errno.FI_EINVAL, file.source() + " is named for another domain: its header " +
                "records domain '" + region.domainName() + "', whose region file is " + expected);
        }
    }

    @Override
    public void body(final InspectedFile file, final UnsafeBuffer header, final PrintWriter out)
    {
        final RegionHeader region = new RegionHeader(header);
        final RegionGeometry geometry = region.geometry();
        final AtomicBuffer mapped = file.map(region.regionLength());
        try (RegionImage image = RegionImage.open(file.path()))
        {
            final DomainStat stat = DomainStat.sample(image);
            final DomainStatText text = new DomainStatText(out);
            out.print("users (" + USER_TABLE_ENTRIES + " entries at offset " + USER_TABLE_OFFSET + ")\n");
            text.users(stat);
            out.print("slots (" + geometry.slotCount() + " at offset " + SLOT_AREA_OFFSET + ", " +
                slotLength(geometry) + " bytes each)\n");
            text.slots(stat, null, null);
            keyTable(mapped, geometry, out);
            counterTable(mapped, geometry, out);
        }
    }

    private static void keyTable(final AtomicBuffer region, final RegionGeometry geometry, final PrintWriter out)
    {
        final int table = mrTableOffset(geometry);
        final StringBuilder lines = new StringBuilder();
        int used = 0;
        for (int i = 0; i < geometry.mrTableEntries(); i++)
        {
            final int entry = MrTableDescriptor.entryOffset(table, i);
            final long control = region.getLongVolatile(entry + MrTableDescriptor.CONTROL_OFFSET);
            final int state = MrTableDescriptor.state(control);
            if (state == MrTableDescriptor.STATE_EMPTY || state == MrTableDescriptor.STATE_FREE)
            {
                continue;
            }
            used++;
            final long owner = region.getLongVolatile(entry + MrTableDescriptor.OWNER_OFFSET);
            lines.append(String.format(Locale.ROOT, "  [%d] %s gen %d, key %s, %s, segment %d offset %d length %d " +
                "nonce %s, base %s, access 0x%x, counter %s%n", i,
                state < MR_STATES.length ? MR_STATES[state] : "state " + state, MrTableDescriptor.generation(control),
                Long.toUnsignedString(region.getLongVolatile(entry + MrTableDescriptor.KEY_OFFSET)),
                Text.process(owner, !ProcessIdentity.isGone(owner)),
                region.getLongVolatile(entry + MrTableDescriptor.SEGMENT_ID_OFFSET),
                region.getIntVolatile(entry + MrTableDescriptor.SEGMENT_OFFSET_OFFSET),
                region.getIntVolatile(entry + MrTableDescriptor.LENGTH_OFFSET),
                Text.hex(region.getLongVolatile(entry + MrTableDescriptor.SEGMENT_NONCE_OFFSET)),
                Text.hex(region.getLongVolatile(entry + MrTableDescriptor.BASE_ADDRESS_OFFSET)),
                region.getIntVolatile(entry + MrTableDescriptor.ACCESS_OFFSET),
                counter(region.getIntVolatile(entry + MrTableDescriptor.COUNTER_OFFSET))));
        }
        out.print("key table (offset " + table + "): " + used + " of " + geometry.mrTableEntries() +
            " entries in use\n" + lines);
    }

    private static String counter(final int indexPlusOne)
    {
        return indexPlusOne == 0 ? "none" : Integer.toString(indexPlusOne - 1);
    }

    private static void counterTable(final AtomicBuffer region, final RegionGeometry geometry, final PrintWriter out)
    {
        final StringBuilder lines = new StringBuilder();
        int used = 0;
        for (int i = 0; i < geometry.counterEntries(); i++)
        {
            final int entry = CounterTableDescriptor.entryOffset(geometry, i);
            final long owner = region.getLongVolatile(entry + CounterTableDescriptor.OWNER_OFFSET);
            if (owner == 0)
            {
                continue;
            }
            used++;
            lines.append(String.format(Locale.ROOT, "  [%d] state %d, %s, value %s, errors %s%n", i,
                region.getIntVolatile(entry + CounterTableDescriptor.STATE_OFFSET),
                Text.process(owner, !ProcessIdentity.isGone(owner)),
                Long.toUnsignedString(region.getLongVolatile(entry + CounterTableDescriptor.VALUE_OFFSET)),
                Long.toUnsignedString(region.getLongVolatile(entry + CounterTableDescriptor.ERROR_OFFSET))));
        }
        out.print("counter table (offset " + counterTableOffset(geometry) + "): " + used + " of " +
            geometry.counterEntries() + " entries in use\n" + lines);
    }
}
