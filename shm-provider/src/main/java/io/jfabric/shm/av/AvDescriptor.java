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
package io.jfabric.shm.av;

import io.jfabric.shm.core.ProcessIdentity;

import org.agrona.BitUtil;

/**
 * Layout version 3 of an address vector table: the file {@code <rootDir>/<domain>.<av name>.<region nonce>.av} of a
 * named AV ({@link #fileName}), and the same bytes in process-private memory for an unnamed one. The only class that
 * computes offsets into it.
 * <p>
 * The file name carries the nonce of the domain region the AV belongs to, as 16 hex digits: an AV holds addresses
 * of that region's slots and incarnations, which mean nothing in a later region of the same name, so the processes
 * of a new region never open (or race to replace) an earlier region's AV; a file whose nonce names no existing region
 * is left behind for good and is removed by the next opener of the domain and by {@code jfabric clean}.
 * <p>
 * A header, then {@code entryCount} entries of {@link #ENTRY_LENGTH} bytes; the file is exactly
 * {@link #fileLength(int)} bytes:
 * <pre>
 *   +------------------------------+  0
 *   |  Header (HEADER_LENGTH)      |
 *   +------------------------------+  entryOffset(0) = HEADER_LENGTH
 *   |  Entry 0                     |
 *   +------------------------------+  entryOffset(1)
 *   |  ...                         |
 *   +------------------------------+  entryOffset(entryCount)
 * </pre>
 * The header; each group starts a cache line, and the fields other processes update (ready, attach count, the
 * generation counter) have lines of their own:
 * <pre>
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+  0 identity
 *   |                      Magic "JFABRAV" + 1                      |
 *   |                                                               |
 *   +---------------------------------------------------------------+  8
 *   |                        Layout Version                         |
 *   +---------------------------------------------------------------+  12
 *   |                        Header Length                          |
 *   +---------------------------------------------------------------+  16
 *   |                      File Length (long)                       |
 *   |                                                               |
 *   +---------------------------------------------------------------+  24 .. 64 reserved
 *   +---------------------------------------------------------------+  64 geometry
 *   |                         Entry Count                           |
 *   +---------------------------------------------------------------+  68
 *   |                         Entry Length                          |
 *   +---------------------------------------------------------------+  72
 *   |                       Address Capacity                        |
 *   +---------------------------------------------------------------+  76
 *   |                       Reserved (int)                          |
 *   +---------------------------------------------------------------+  80
 *   |           Map Addr (long): the creator's map_addr             |
 *   |                                                               |
 *   +---------------------------------------------------------------+  88 .. 128 reserved
 *   +---------------------------------------------------------------+  128 creator
 *   |                     Creator Pid (long)                        |
 *   +---------------------------------------------------------------+  136
 *   |                 Creation Time, epoch ms (long)                |
 *   +---------------------------------------------------------------+  144 .. 192 reserved
 *   +---------------------------------------------------------------+  192 names
 *   |                 Domain Name Length (bytes, int)               |
 *   +---------------------------------------------------------------+  196
 *   |        Domain Name, US-ASCII, up to NAME_CAPACITY bytes      ...
 *   +---------------------------------------------------------------+  448
 *   |                   AV Name Length (bytes, int)                 |
 *   +---------------------------------------------------------------+  452
 *   |         AV Name, US-ASCII, up to AV_NAME_CAPACITY bytes      ...
 *   +---------------------------------------------------------------+  704 checksum
 *   |        Header Checksum: CRC32C of bytes [0, CHECKSUM_OFFSET)  |
 *   +---------------------------------------------------------------+  708 .. 768 reserved
 *   +---------------------------------------------------------------+  768 ready
 *   |  Ready: READY_VALUE, written last with release by the creator |
 *   +---------------------------------------------------------------+  832 attach
 *   |        Attach Count (long): every open adds one atomically    |
 *   +---------------------------------------------------------------+  896 generation
 *   |  Generation Counter (long): getAndAdd per publication         |
 *   +---------------------------------------------------------------+  960 .. 1024 reserved
 * </pre>
 * One entry, {@link #ENTRY_LENGTH} bytes (a multiple of the cache line):
 * <pre>
 *   +---------------------------------------------------------------+  +0
 *   |  State (long), one of: FREE 0;                                |
 *   |    CLAIMED: (owner identity: pid | start-time bits) * 4 + 1   |
 *   |    VALID: generation (41 bits) * 2^23 + references (20 bits)  |
 *   |      * 8 + updating (1 bit) * 4 + 2                           |
 *   +---------------------------------------------------------------+  +8
 *   |  Kind (int): 1 endpoint address, 2 authorization key          |
 *   +---------------------------------------------------------------+  +12
 *   |  Address (or key) Length in bytes (int)                       |
 *   +---------------------------------------------------------------+  +16
 *   |  Endpoint Slot (int), parsed from the address                 |
 *   +---------------------------------------------------------------+  +20 reserved (int)
 *   +---------------------------------------------------------------+  +24
 *   |  Incarnation (long), 0 when the address names none            |
 *   +---------------------------------------------------------------+  +32
 *   |  User Id (long): FI_ADDR_NOTAVAIL until set (volatile)        |
 *   +---------------------------------------------------------------+  +40
 *   |  Auth Key Index (long): the key entry's index, -1 for none    |
 *   +---------------------------------------------------------------+  +48
 *   |  Auth Key Generation (long): that key entry's generation      |
 *   +---------------------------------------------------------------+  +56
 *   |  Updater (long): ProcessIdentity of the fi_av_set_user_id     |
 *   |  caller holding the entry, 0 when none                        |
 *   +---------------------------------------------------------------+  +64
 *   |  Address bytes (US-ASCII, no NUL) or key bytes,               |
 *   |  ADDRESS_CAPACITY bytes                                      ...
 *   +---------------------------------------------------------------+  +ENTRY_LENGTH
 * </pre>
 * Entry protocol: an inserter claims a FREE entry with a CAS of the state from 0 to CLAIMED with its process identity
 * ({@link io.jfabric.shm.core.ProcessIdentity}: pid and start time, under 2^62 so the shift keeps all of it), writes
 * the fields, and publishes it with a release store of VALID carrying a fresh generation from the header's
 * counter, so no two publications of any entry ever share a generation. A remover CASes VALID to FREE. A reader
 * acquire-loads the state, reads the fields, then (after an acquire fence) loads the state again: the fields are
 * whole only when both loads returned the same VALID value. A CLAIMED entry whose claimer is gone (no such pid, or
 * the pid now belongs to a process that started at another time) is set back to FREE by the next inserter that finds
 * it.
 * <p>
 * <b>References</b> (layout 2): the addresses inserted with an authorization key are counted in the key entry's own
 * state word, so "add a reference" (CAS VALID(g, r) to VALID(g, r + 1)) and "remove if unreferenced" (CAS
 * VALID(g, 0) to FREE) are CASes on the same word and cannot both succeed against each other: an inserter either
 * holds a reference before the key is removed, or finds the key gone. Both name the generation they validated, so
 * a late +1 or -1 aimed at a key that was removed and whose index now holds another publication fails instead of
 * landing on it. An address entry records its key's index and generation, and gives its reference back (CAS
 * r to r - 1 under that generation) after its own removal.
 * <p>
 * <b>Updating bit</b> (layout 3 adds its owner): fi_av_set_user_id first takes the entry's Updater word with a
 * CAS from 0 to its {@link io.jfabric.shm.core.ProcessIdentity}, then sets the bit with a CAS from the VALID state it
 * validated (same generation), writes the user id, clears the bit with a CAS, and stores 0 to the Updater word
 * with release. Only the Updater word's holder sets the bit, so while the bit is set the word names the process
 * that set it. Removers and other updaters wait while it is set (briefly): past {@code AvTable}'s bound they read
 * the Updater; a live one makes them give up with FI_EAGAIN, a gone one (killed while updating) is taken over
 * with a CAS of the word from its identity to theirs, so exactly one of them clears the bit it left, and then
 * proceeds. So a user id is only ever written to the publication that was validated, and a killed updater never
 * wedges an entry. Readers see the state change and re-read. The Updater word is not part of a publication: it is
 * left at 0 by every holder, whatever happened to the entry meanwhile.
 * <p>
 * Generations are 41 bits (2^41 publications per table before they wrap). Every field is in native byte order,
 * like Agrona's rings.
 * <p>
 * Stateless; any thread.
 */
public final class AvDescriptor
{
    /** File name suffix of a named AV. */
    public static final String FILE_SUFFIX = ".av";

    /** Magic number at offset 0: the bytes {@code "JFABRAV"} followed by a 1 byte, read as a little-endian long. */
    public static final long MAGIC = 0x01_56_41_52_42_41_46_4AL;

    /** The layout this class describes. */
    public static final int LAYOUT_VERSION = 3;

    /** Length of the header. */
    public static final int HEADER_LENGTH = 1024;

    /** Offset of the magic number (long). */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the layout version (int). */
    public static final int LAYOUT_VERSION_OFFSET = 8;
    /** Offset of the header length (int). */
    public static final int HEADER_LENGTH_OFFSET = 12;
    /** Offset of the file length (long). */
    public static final int FILE_LENGTH_OFFSET = 16;
    /** Offset of the entry count (int). */
    public static final int ENTRY_COUNT_OFFSET = BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the entry length (int). */
    public static final int ENTRY_LENGTH_OFFSET = ENTRY_COUNT_OFFSET + 4;
    /** Offset of the address capacity (int). */
    public static final int ADDRESS_CAPACITY_OFFSET = ENTRY_COUNT_OFFSET + 8;
    /** Offset of the creator's map_addr (long). */
    public static final int MAP_ADDR_OFFSET = ENTRY_COUNT_OFFSET + 16;
    /** Offset of the creator's pid (long). */
    public static final int CREATOR_PID_OFFSET = 2 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the creation time (long). */
    public static final int CREATION_TIME_OFFSET = CREATOR_PID_OFFSET + 8;
    /** Offset of the domain name length (int). */
    public static final int DOMAIN_NAME_LENGTH_OFFSET = 3 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the domain name bytes. */
    public static final int DOMAIN_NAME_OFFSET = DOMAIN_NAME_LENGTH_OFFSET + 4;
    /** Bytes kept for the domain name. */
    public static final int NAME_CAPACITY = 252;
    /** Offset of the AV name length (int). */
    public static final int AV_NAME_LENGTH_OFFSET = 7 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the AV name bytes. */
    public static final int AV_NAME_OFFSET = AV_NAME_LENGTH_OFFSET + 4;
    /** Bytes kept for the AV name. */
    public static final int AV_NAME_CAPACITY = 252;
    /** Offset of the checksum (int): CRC32C of bytes [0, CHECKSUM_OFFSET). */
    public static final int CHECKSUM_OFFSET = 11 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the ready field (int). */
    public static final int READY_OFFSET = 12 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the attach count (long). */
    public static final int ATTACH_COUNT_OFFSET = 13 * BitUtil.CACHE_LINE_LENGTH;
    /** Offset of the generation counter (long). */
    public static final int GENERATION_OFFSET = 14 * BitUtil.CACHE_LINE_LENGTH;
    /** What the ready field holds once the header is complete. */
    public static final int READY_VALUE = 0x52454459;

    /** Length of one entry. */
    public static final int ENTRY_LENGTH = 6 * BitUtil.CACHE_LINE_LENGTH;
    /** Entry: state (long). */
    public static final int STATE_OFFSET = 0;
    /** Entry: kind (int). */
    public static final int KIND_OFFSET = 8;
    /** Entry: address length (int). */
    public static final int ADDRESS_LENGTH_OFFSET = 12;
    /** Entry: slot (int). */
    public static final int SLOT_OFFSET = 16;
    /** Entry: incarnation (long). */
    public static final int INCARNATION_OFFSET = 24;
    /** Entry: user id (long). */
    public static final int USER_ID_OFFSET = 32;
    /** Entry: auth key index (long). */
    public static final int AUTH_KEY_OFFSET = 40;
    /** Entry: the generation of the auth key entry an address was inserted with (long). */
    public static final int AUTH_KEY_GENERATION_OFFSET = 48;
    /**
     * Entry: the {@link io.jfabric.shm.core.ProcessIdentity} of the user id updater holding this entry (long), 0 when
     * none: taken with a CAS from 0 before the updating bit is set, given back with a release store of 0 after it is
     * cleared, so whenever the bit is set this word names the process that set it.
     */
    public static final int UPDATER_OFFSET = 56;
    /** Entry: address bytes. */
    public static final int ADDRESS_OFFSET = BitUtil.CACHE_LINE_LENGTH;
    /** Bytes an entry keeps for its address or key. */
    public static final int ADDRESS_CAPACITY = ENTRY_LENGTH - ADDRESS_OFFSET;

    /** Entry kind: an endpoint address. */
    public static final int KIND_ADDRESS = 1;
    /** Entry kind: an authorization key. */
    public static final int KIND_AUTH_KEY = 2;

    /** State of a free entry. */
    public static final long FREE = 0;
    /** Tag bits of the state. */
    public static final long TAG_MASK = 3;
    /** Tag of a claimed entry: the rest is the claimer's process identity. */
    public static final long TAG_CLAIMED = 1;
    /** Tag of a valid entry: the rest is its generation. */
    public static final long TAG_VALID = 2;

    /** VALID state: set while a user id is being written. */
    public static final long UPDATING = 1L << 2;
    /** VALID state: bit position of the reference count. */
    public static final int REFERENCES_SHIFT = 3;
    /** VALID state: one reference. */
    public static final long REFERENCE = 1L << REFERENCES_SHIFT;
    /** Most references a key entry counts (every other entry of the largest table). */
    public static final long MAX_REFERENCES = (1L << 20) - 1;
    /** VALID state: bit position of the generation. */
    public static final int GENERATION_SHIFT = REFERENCES_SHIFT + 20;
    /** Generations are taken modulo this mask + 1. */
    public static final long GENERATION_MASK = (1L << (64 - GENERATION_SHIFT)) - 1;

    /** Most entries a table may have. */
    public static final int MAX_ENTRIES = 1 << 20;

    private static final int NONCE_DIGITS = 16;

    private AvDescriptor()
    {
    }

    /**
     * @param domainName  the domain.
     * @param avName      the AV's name.
     * @param regionNonce the nonce of the domain's region ({@code RegionFile#regionNonce}).
     * @return the named AV's file name: {@code <domain>.<av name>.<region nonce, 16 hex digits>.av}.
     */
    public static String fileName(final String domainName, final String avName, final long regionNonce)
    {
        final String nonce = Long.toHexString(regionNonce);
        return domainName + '.' + avName + '.' + "0".repeat(NONCE_DIGITS - nonce.length()) + nonce +
            FILE_SUFFIX;
    }

    /**
     * @param fileName a file name in the shm root.
     * @return the region nonce a named AV's {@link #fileName} carries, or 0 when the name is not one.
     */
    public static long regionNonceOf(final String fileName)
    {
        final int end = fileName.length() - FILE_SUFFIX.length();
        final int start = end - NONCE_DIGITS;
        if (!fileName.endsWith(FILE_SUFFIX) || start < 4 || fileName.charAt(start - 1) != '.')
        {
            return 0;
        }
        for (int i = start; i < end; i++)
        {
            if (Character.digit(fileName.charAt(i), 16) < 0)
            {
                return 0;
            }
        }
        return Long.parseUnsignedLong(fileName.substring(start, end), 16);
    }

    /**
     * @param entryCount entries.
     * @return the table's length in bytes.
     */
    public static long fileLength(final int entryCount)
    {
        return HEADER_LENGTH + (long)entryCount * ENTRY_LENGTH;
    }

    /**
     * @param index an entry index.
     * @return its offset.
     */
    public static int entryOffset(final int index)
    {
        return HEADER_LENGTH + index * ENTRY_LENGTH;
    }

    /**
     * @param identity the claimer's {@link io.jfabric.shm.core.ProcessIdentity}, below 2^62.
     * @return the CLAIMED state.
     */
    public static long claimed(final long identity)
    {
        return (identity << 2) | TAG_CLAIMED;
    }

    /**
     * @param generation a fresh generation (taken modulo 2^41).
     * @return the VALID state: no references, not updating.
     */
    public static long valid(final long generation)
    {
        return ((generation & GENERATION_MASK) << GENERATION_SHIFT) | TAG_VALID;
    }

    /**
     * @param state a VALID state word.
     * @return its generation.
     */
    public static long generation(final long state)
    {
        return state >>> GENERATION_SHIFT;
    }

    /**
     * @param state a VALID state word.
     * @return the references it counts.
     */
    public static long references(final long state)
    {
        return (state >>> REFERENCES_SHIFT) & MAX_REFERENCES;
    }

    /**
     * @param state a VALID state word.
     * @return true while a user id is being written.
     */
    public static boolean isUpdating(final long state)
    {
        return (state & UPDATING) != 0;
    }

    /**
     * @param state a state word.
     * @return true when VALID.
     */
    public static boolean isValid(final long state)
    {
        return (state & TAG_MASK) == TAG_VALID;
    }

    /**
     * @param state a state word.
     * @return true when CLAIMED.
     */
    public static boolean isClaimed(final long state)
    {
        return (state & TAG_MASK) == TAG_CLAIMED;
    }

    /**
     * @param state a CLAIMED state word.
     * @return the claimer's {@link io.jfabric.shm.core.ProcessIdentity}.
     */
    public static long claimer(final long state)
    {
        return state >>> 2;
    }

    /**
     * @param count the count asked for (at least 1).
     * @return the entries of a table for it: the next power of two, at least 16.
     */
    public static int entriesFor(final long count)
    {
        return (int)Math.max(16, Long.highestOneBit(Math.max(1, count) - 1) << 1);
    }
}
