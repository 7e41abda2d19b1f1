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
import io.jfabric.shm.av.AvDescriptor;
import io.jfabric.shm.av.AvHeader;
import io.jfabric.shm.core.ProcessIdentity;
import io.jfabric.shm.region.InspectedFile;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.PrintWriter;
import java.util.Locale;

import static io.jfabric.shm.av.AvDescriptor.*;

/**
 * {@code jfabric dump} of a named address vector's file ({@link AvDescriptor}): every header field, then every entry
 * that is not free: claimed ones with their claimer, valid ones with generation, references, kind, slot,
 * incarnation, user id, authorization key and address (or key bytes). Entries are read once each, so one being
 * changed meanwhile may show a mix of its old and new fields. The command's thread only.
 */
final class AvDump implements FileDump
{
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
            .longField(FILE_LENGTH_OFFSET, "file length")
            .intField(ENTRY_COUNT_OFFSET, "entry count")
            .intField(ENTRY_LENGTH_OFFSET, "entry length")
            .intField(ADDRESS_CAPACITY_OFFSET, "address capacity")
            .hexLong(MAP_ADDR_OFFSET, "map addr")
            .longField(CREATOR_PID_OFFSET, "creator pid")
            .instant(CREATION_TIME_OFFSET, "creation time")
            .text(DOMAIN_NAME_LENGTH_OFFSET, DOMAIN_NAME_OFFSET, NAME_CAPACITY, "domain name")
            .text(AV_NAME_LENGTH_OFFSET, AV_NAME_OFFSET, AV_NAME_CAPACITY, "av name")
            .checksum(CHECKSUM_OFFSET, "checksum")
            .hexInt(READY_OFFSET, "ready")
            .longField(ATTACH_COUNT_OFFSET, "attach count")
            .longField(GENERATION_OFFSET, "generation counter");
    }

    @Override
    public void verify(final InspectedFile file, final UnsafeBuffer header)
    {
        final AvHeader av = new AvHeader(header);
        av.verifyIdentity(file.source());
        av.verifyReady(file.source());
        av.verify(file.source());
        final String name = file.path().getFileName().toString();
        final long nonce = AvDescriptor.regionNonceOf(name);
        final String expected = AvDescriptor.fileName(av.domainName(), av.avName(), nonce);
        if (nonce != 0 && !name.equals(expected))
        {
            throw new FabricException(Errno.FI_EINVAL, file.source() + " is named for another AV: its header " +
                "records AV '" + av.avName() + "' of domain '" + av.domainName() + "', whose file is " + expected);
        }
    }

    @Override
    public void body(final InspectedFile file, final UnsafeBuffer header, final PrintWriter out)
    {
        final AvHeader av = new AvHeader(header);
        final AtomicBuffer table = file.map(av.fileLength());
        final StringBuilder lines = new StringBuilder();
        int used = 0;
        for (int i = 0; i < av.entryCount(); i++)
        {
            final int entry = entryOffset(i);
            final long state = table.getLongVolatile(entry + STATE_OFFSET);
            if (state == FREE)
            {
                continue;
            }
            used++;
            lines.append("  [").append(i).append("] ");
            if (isClaimed(state))
            {
                final long claimer = claimer(state);
                lines.append("claimed by ").append(Text.process(claimer, !ProcessIdentity.isGone(claimer)))
                    .append(" (being inserted)\n");
            }
            else if (isValid(state))
            {
                lines.append(valid(table, entry, state)).append('\n');
            }
            else
            {
                lines.append("state ").append(Text.hex(state)).append(" (neither claimed nor valid)\n");
            }
        }
        out.print("entries (offset " + HEADER_LENGTH + ", " + ENTRY_LENGTH + " bytes each): " + used + " of " +
            av.entryCount() + " in use\n" + lines);
    }

    private static String valid(final AtomicBuffer table, final int entry, final long state)
    {
        final int kind = table.getInt(entry + KIND_OFFSET);
        final int length = Math.max(0, Math.min(ADDRESS_CAPACITY, table.getInt(entry + ADDRESS_LENGTH_OFFSET)));
        final long userId = table.getLongVolatile(entry + USER_ID_OFFSET);
        final long authKey = table.getLong(entry + AUTH_KEY_OFFSET);
        final String common = String.format(Locale.ROOT, "valid gen %d, references %d%s, ", generation(state),
            references(state), isUpdating(state) ? ", user id being updated" : "");
        if (kind == KIND_AUTH_KEY)
        {
            final StringBuilder key = new StringBuilder();
            for (int i = 0; i < length; i++)
            {
                key.append(String.format(Locale.ROOT, "%02x", table.getByte(entry + ADDRESS_OFFSET + i)));
            }
            return common + "auth key of " + length + " bytes: " + key;
        }
        return common + (kind == KIND_ADDRESS ? "address" : "kind " + kind) + " " +
            table.getStringWithoutLengthAscii(entry + ADDRESS_OFFSET, length) + ", slot " +
            table.getInt(entry + SLOT_OFFSET) + ", incarnation " + table.getLong(entry + INCARNATION_OFFSET) +
            ", user id " + (userId == -1 ? "none" : Long.toUnsignedString(userId)) + ", auth key " +
            (authKey == -1 ? "none" : "entry " + authKey + " gen " + table.getLong(entry + AUTH_KEY_GENERATION_OFFSET));
    }
}
