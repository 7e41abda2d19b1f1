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

import io.jfabric.AddressVector;
import io.jfabric.Addresses;
import io.jfabric.AvAttr;
import io.jfabric.AvType;
import io.jfabric.DomainAttr;
import io.jfabric.EqEvent;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Fid;
import io.jfabric.FidClass;
import io.jfabric.Flags;
import io.jfabric.shm.context.DomainContext;
import io.jfabric.shm.core.FidLifecycle;
import io.jfabric.shm.core.LocalHost;
import io.jfabric.shm.core.ShmCapabilities;
import io.jfabric.shm.eq.ShmEventQueue;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The shm provider's address vector (fi_av(3)), of type FI_AV_TABLE or FI_AV_MAP (both reported as asked; they
 * differ only in the fi_addr_t values of a named AV, see below; FI_AV_UNSPEC resolves to FI_AV_TABLE). Addresses
 * are {@link ShmAddress} strings of this host and this AV's domain; any well-formed one whose slot is below the
 * region's slot count inserts, whether or not an endpoint holds that slot yet (an AV may list peers that start
 * later). Addresses of another host or domain do not insert (FI_LOCAL_COMM only): their fi_addr slot gets
 * {@link Addresses#FI_ADDR_NOTAVAIL} and their status {@link Errno#FI_EADDRNOTAVAIL}; a malformed address or slot
 * gives {@link Errno#FI_EINVAL}, a full table {@link Errno#FI_ENOSPC}.
 * <p>
 * <b>fi_addr_t values</b> ({@link #fiAddrBase}{@code  + index}, in the low 32 bits):
 * <ul>
 * <li>FI_AV_TABLE: the table index, 0, 1, 2, ... (lowest free first), named or not and whatever map_addr was given,
 * as fi_av(3) says of FI_AV_TABLE; every process of a named table gets the same fi_addr for an entry, since the
 * index is shared. map_addr is recorded and reported back only.</li>
 * <li>FI_AV_MAP: unnamed, the index too (map_addr is ignored without a name). Named, {@code map_addr + index}:
 * the page makes map_addr the base of a shared FI_AV_MAP's values, so processes giving the same map_addr get the
 * same fi_addr for an entry. map_addr + the table's entries must then be &lt; 2^32, so the last fi_addr stays below
 * 0xFFFFFFFF (fi_group_addr of all ones in both halves would be FI_ADDR_NOTAVAIL) ({@link Errno#FI_EINVAL} at open
 * otherwise, before any file is created or mapped).</li>
 * </ul>
 * A named AV records its creator's map_addr; an opener passing 0 uses and gets back that one, an opener passing
 * another value uses its own. The type is not recorded: processes sharing a named AV must open it with the same
 * type to agree on fi_addr values. Of the high 32 bits, the top rx_ctx_bits carry {@link AddressVector#rxAddr}'s
 * receive context index (fi_rx_addr: it selects a receive context of a scalable endpoint, see
 * {@link #rxIndexOf}); the others must be 0. They would carry {@link AddressVector#groupAddr}'s group id, but shm
 * does not offer peer groups (its domains have no max_group_id, that is 0), so an fi_addr with a group id names no
 * entry ({@link Errno#FI_EINVAL} from the control path, -FI_EINVAL from the data path). Every fi_addr this
 * AV hands out or reports (inserts, auth key handles, FI_SOURCE src_addr in completions) is of this form, and every
 * one it takes (lookup, remove, user ids, FI_AUTH_KEY handles, destinations) is resolved by {@link #indexOf}.
 * <p>
 * <b>Named AVs</b> live in {@code <root>/<domain>.<name>.av}, created and validated like the domain region (see
 * {@link io.jfabric.shm.region.SharedFile}); the table is sized from the creator's count (rounded up to a power of
 * two, at least 16); a later opener's count is a hint only and {@link #attr()} reports the table's entries. FI_READ
 * opens an existing named AV read-only: without a name {@link Errno#FI_EINVAL}, when it does not exist
 * {@link Errno#FI_ENOENT}; inserts, removes, auth key inserts and user ids then fail with {@link Errno#FI_EPERM}.
 * Files outlive processes; remove them with the domain's files.
 * <p>
 * FI_SYMMETRIC and ep_per_node are accepted and reported back; they change nothing, every insert is checked the
 * same way. rx_ctx_bits (0 to 16) says how many top bits of an fi_addr name a receive context.
 * <p>
 * <b>Concurrency</b>: the table is lock free (see {@link AvDescriptor}), so no lock is taken whatever the domain's
 * threading model; an inserter process that dies between claiming and publishing leaves a CLAIMED entry that the
 * next inserter, finding that process gone, frees ({@link io.jfabric.shm.core.ProcessIdentity}: pid and start time, so a
 * reused pid does not keep it claimed).
 * <p>
 * <b>FI_EVENT</b>: inserts are carried out in the calling thread and reported on the bound EQ: one error entry per
 * failed address (data = the address's position in the call) and one FI_AV_COMPLETE with the count; the call
 * returns 0, or fails with {@link Errno#FI_ENOEQ} when no EQ is bound. FI_SYNC_ERR is for synchronous AVs only.
 * <p>
 * <b>Authorization keys</b> (1 to {@link ShmCapabilities#MAX_AUTH_KEY_SIZE} bytes) are entries of the same table,
 * so their handles are shared by every process of a named AV and take an index like an address. As fi_av(3) says,
 * they need a domain opened with auth_key_size {@link DomainAttr#FI_AV_AUTH_KEY}: on other domains
 * fi_av_insert_auth_key and inserts with FI_AUTH_KEY fail with {@link Errno#FI_EINVAL}, and on such a domain
 * FI_AV_USER_ID per insert fails with {@link Errno#FI_EINVAL} (open the AV with FI_AV_USER_ID and use
 * fi_av_set_user_id). Removing a key that addresses still use, or that an open endpoint was enabled against
 * ({@link AvKeyHolds}), fails with {@link Errno#FI_EBUSY}; adding a reference and removing a key are CASes on the
 * key's state word, so they never both succeed ({@link AvDescriptor}). An inserter process killed between taking
 * its key reference and publishing its address leaves that reference counted, and the key can then not be removed;
 * so do a process killed while its endpoint holds the key, and a remover process killed between
 * removing an address ({@link AvTable#remove}) and giving back its key's reference ({@link AvTable#dropReference}).
 * Neither leak is recovered: the key's state word counts references, not their holders, and telling a leaked one
 * from a live one would take a scan of every entry racing in-flight inserts. A process killed while setting a user
 * id is recovered: see {@link AvDescriptor}'s updating bit.
 * <p>
 * Thread safe. Closing fails with {@link Errno#FI_EBUSY} while an endpoint holds a reference ({@link #retain}).
 * After close, control calls fail with {@link Errno#FI_EBADF} and the data path ({@link #slotOf},
 * {@link #incarnationOf}, {@link #indexOf}) returns -1. Close does not unmap the table: a call racing the close may
 * still read it, so the mapping is released with this object by the garbage collector.
 */
public final class ShmAddressVector extends FidLifecycle implements AddressVector
{
    /** File name suffix of a named AV. */
    public static final String FILE_SUFFIX = ".av";

    /** Longest AV name. */
    public static final int MAX_NAME_LENGTH = 48;

    /** Bits of an fi_addr_t that carry the base + index: the low 32, below fi_group_addr's group id. */
    public static final int INDEX_BITS = 32;

    /** One more than the largest fi_addr_t value an entry may have: base + entries must not exceed it. */
    public static final long FI_ADDR_LIMIT = 1L << INDEX_BITS;

    private static final long INDEX_MASK = FI_ADDR_LIMIT - 1;
    static final long OPEN_FLAGS = Flags.FI_EVENT | Flags.FI_READ | Flags.FI_SYMMETRIC | Flags.FI_AV_USER_ID;
    private static final long INSERT_FLAGS = Flags.FI_MORE | Flags.FI_SYNC_ERR | Flags.FI_AV_USER_ID | Flags.FI_AUTH_KEY;
    static final int MAX_RX_CTX_BITS = 16;

    private final DomainContext domain;
    private final AvAttr attr;
    /** rx_ctx_bits: top bits of an fi_addr that name a receive context. */
    private final int rxCtxBits;
    /** The bits of an fi_addr that must be 0: all above the index but the top rx_ctx_bits. */
    private final long groupMask;
    private final String domainName;
    private final int slotCount;
    private final long fiAddrBase;
    private final boolean readOnly;
    private final boolean async;
    private final boolean userIdMode;
    private final boolean avAuthKeys;
    private final Path path;
    private final GuardedAvTable table;
    private volatile ShmEventQueue eq;

    private ShmAddressVector(
        final DomainContext domain, final AvAttr attr, final long context, final Path path, final ByteBuffer memory,
        final int entries, final long mapAddr)
    {
        super(FidClass.AV, context);
        this.domain = domain;
        this.domainName = domain.attr().name();
        this.slotCount = domain.region().geometry().slotCount();
        this.path = path;
        // fi_av(3): FI_AV_TABLE fi_addr values are indices from 0; map_addr is the base of a named FI_AV_MAP's.
        this.fiAddrBase = path != null && attr.type() == AvType.MAP ? mapAddr : 0;
        this.rxCtxBits = attr.rxCtxBits();
        this.groupMask = ~INDEX_MASK & (rxCtxBits == 0 ? -1L : -1L >>> rxCtxBits);
        this.readOnly = (attr.flags() & Flags.FI_READ) != 0;
        this.async = (attr.flags() & Flags.FI_EVENT) != 0;
        this.userIdMode = (attr.flags() & Flags.FI_AV_USER_ID) != 0;
        this.avAuthKeys = domain.attr().authKeySize() == DomainAttr.FI_AV_AUTH_KEY;
        // The buffer keeps the mapping reachable. A truncated file fails this AV alone, with FI_EIO.
        this.table = new GuardedAvTable(new AvTable(new UnsafeBuffer(memory), entries));
        if (path != null)
        {
            table.reportFaults(path, domain, this, memory.capacity());
        }
        this.attr = attr.count(entries).mapAddr(path == null ? 0 : mapAddr);
    }

    /**
     * {@code fi_av_open}: validate the attributes and open (a named AV: create or open its file).
     *
     * @param domain  the domain; takes a reference, released by close.
     * @param asked   the attributes; not kept.
     * @param context the application's context.
     * @param maxCount the largest count allowed.
     * @return the AV.
     */
    public static ShmAddressVector open(
        final DomainContext domain, final AvAttr asked, final long context, final int maxCount)
    {
        domain.ensureOpen("fi_av_open");
        final AvAttr attr = AvAttrValidator.validate(asked, domain.attr().epCnt(), maxCount);
        domain.retain("fi_av_open");
        boolean opened = false;
        try
        {
            final ShmAddressVector av;
            if (attr.name() == null)
            {
                final int entries = AvDescriptor.entriesFor(attr.count());
                final ByteBuffer memory = ByteBuffer.allocateDirect((int)AvDescriptor.fileLength(entries));
                final AvHeader header = new AvHeader(new UnsafeBuffer(memory));
                header.write(entries, 0, domain.attr().name(), "");
                header.publishReady();
                av = new ShmAddressVector(domain, attr, context, null, memory, entries, 0);
            }
            else
            {
                // AvFile checks map_addr against the existing table before mapping it, and validate() checked it
                // against the table it would create: nothing is created or attached with a map_addr that fails.
                final AvFile file = AvFile.open(domain, attr);
                final long mapAddr = attr.mapAddr() != 0 ? attr.mapAddr() : file.mapAddr();
                av = new ShmAddressVector(domain, attr, context, file.path(), file.buffer(), file.entries(),
                    mapAddr);
            }
            opened = true;
            return av;
        }
        finally
        {
            if (!opened)
            {
                domain.release();
            }
        }
    }

    @Override
    public AvAttr attr()
    {
        return attr.copy();
    }

    /** @return the named AV's file, or null for an unnamed AV. */
    public Path path()
    {
        return path;
    }

    /** @return the domain this AV was opened from. */
    public FidLifecycle domain()
    {
        return domain.fid();
    }

    /**
     * @return the base of this AV's fi_addr_t values (fi_addr = base + index): the map_addr in use for a named
     * FI_AV_MAP, 0 otherwise (FI_AV_TABLE values are the indices). The map_addr in use is {@code attr().mapAddr()}.
     */
    public long fiAddrBase()
    {
        return fiAddrBase;
    }

    /** @return the table, for this package's tests. */
    AvTable table()
    {
        return table.raw();
    }

    /** @return entries of the table. */
    public int entries()
    {
        return table.entryCount();
    }

    @Override
    public synchronized void bind(final Fid fid, final long flags)
    {
        ensureOpen("fi_av_bind");
        if (!(fid instanceof ShmEventQueue) || ((ShmEventQueue)fid).fabric() != domain.fabric())
        {
            throw new FabricException(Errno.FI_EINVAL,
                "fi_av_bind: an AV binds only an event queue opened from its domain's shm fabric");
        }
        if (flags != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS,
                "fi_av_bind: flags 0x" + Long.toHexString(flags) + " are reserved and must be 0");
        }
        if (eq != null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_bind: the AV already has an event queue bound");
        }
        ((ShmEventQueue)fid).retain("fi_av_bind");
        eq = (ShmEventQueue)fid;
    }

    @Override
    public int insert(
        final String[] addr, final int count, final long[] fiAddr, final long flags, final long context,
        final int[] status)
    {
        if (count < 0 || (count > 0 && (addr == null || addr.length < count)))
        {
            ensureOpen("fi_av_insert");
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insert: count " + count + " but " +
                (addr == null ? "no address array" : "an array of " + addr.length));
        }
        return insertAll("fi_av_insert", addr, count, fiAddr, flags, context, status);
    }

    @Override
    public int insertsvc(
        final String node, final String service, final long[] fiAddr, final long flags, final long context,
        final int[] status)
    {
        final String address;
        if (service == null)
        {
            if (node == null)
            {
                ensureOpen("fi_av_insertsvc");
                throw new FabricException(Errno.FI_EINVAL, "fi_av_insertsvc: node and service are both null");
            }
            address = node;
        }
        else
        {
            address = serviceAddress(node == null ? LocalHost.name() : node, service);
        }
        return insertAll("fi_av_insertsvc", new String[]{ address }, 1, fiAddr, flags, context, status);
    }

    @Override
    public int insertsym(
        final String node, final int nodecnt, final String service, final int svccnt, final long[] fiAddr,
        final long flags, final long context, final int[] status)
    {
        ensureOpen("fi_av_insertsym");
        if (node == null || service == null || nodecnt < 0 || svccnt < 0)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insertsym: node and service are required and the " +
                "counts not negative (node " + node + " x " + nodecnt + ", service " + service + " x " + svccnt + ")");
        }
        final int digits = numericSuffix(node);
        if (nodecnt > 1 && digits == 0)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insertsym: node \"" + node + "\" has no numeric " +
                "suffix, which nodecnt " + nodecnt + " > 1 needs");
        }
        final int slash = service.indexOf('/');
        final String firstSlot = slash < 0 ? service : service.substring(0, slash);
        final String rest = slash < 0 ? "" : service.substring(slash);
        if (firstSlot.isEmpty() || numericSuffix(firstSlot) != firstSlot.length() || firstSlot.length() > 9)
        {
            throw new FabricException(Errno.FI_EINVAL,
                "fi_av_insertsym: service \"" + service + "\" must start with a decimal slot number");
        }
        final long total = (long)nodecnt * svccnt;
        if (total > entries())
        {
            // Checked before the addresses are made: a count near 2^31 would otherwise allocate gigabytes first.
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insertsym: " + nodecnt + " nodes x " + svccnt +
                " services = " + total + " addresses, more than the AV's table holds (" + entries() +
                " entries); nothing was inserted");
        }
        final String[] addresses = new String[(int)total];
        final String prefix = node.substring(0, node.length() - digits);
        final long firstNode = digits == 0 ? 0 : Long.parseLong(node.substring(node.length() - digits));
        final int slot = Integer.parseInt(firstSlot);
        int k = 0;
        for (int n = 0; n < nodecnt; n++)
        {
            final String nodeName = digits == 0 ? node : prefix + pad(firstNode + n, digits);
            for (int s = 0; s < svccnt; s++)
            {
                addresses[k++] = serviceAddress(nodeName, (slot + (long)s) + rest);
            }
        }
        return insertAll("fi_av_insertsym", addresses, addresses.length, fiAddr, flags, context, status);
    }

    private String serviceAddress(final String node, final String service)
    {
        return ShmAddress.SCHEME + node + ':' + (service.indexOf('/') < 0 ? service + '/' + domainName : service);
    }

    private static int numericSuffix(final String s)
    {
        int digits = 0;
        while (digits < s.length() && Character.isDigit(s.charAt(s.length() - 1 - digits)) &&
            s.charAt(s.length() - 1 - digits) < 128)
        {
            digits++;
        }
        return Math.min(digits, 18);
    }

    private static String pad(final long value, final int width)
    {
        final String text = Long.toString(value);
        return text.length() >= width ? text : "0".repeat(width - text.length()) + text;
    }

    private int insertAll(
        final String call, final String[] addr, final int count, final long[] fiAddr, final long flags,
        final long context, final int[] status)
    {
        ensureOpen(call);
        if (readOnly)
        {
            throw new FabricException(Errno.FI_EPERM, call + ": the AV was opened read-only (FI_READ)");
        }
        if ((flags & ~INSERT_FLAGS) != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS, call + ": flags 0x" + Long.toHexString(flags & ~INSERT_FLAGS) +
                " are not insert flags (FI_MORE, FI_SYNC_ERR, FI_AV_USER_ID, FI_AUTH_KEY)");
        }
        final boolean syncErr = (flags & Flags.FI_SYNC_ERR) != 0;
        final boolean userIds = (flags & Flags.FI_AV_USER_ID) != 0;
        final boolean authKeys = (flags & Flags.FI_AUTH_KEY) != 0;
        if (fiAddr != null && fiAddr.length < count)
        {
            throw new FabricException(Errno.FI_EINVAL, call + ": fi_addr holds " + fiAddr.length + " of " + count);
        }
        if (syncErr && (async || status == null || status.length < count))
        {
            throw new FabricException(Errno.FI_EINVAL, call + ": FI_SYNC_ERR " + (async ?
                "applies to synchronous AVs only, this one was opened with FI_EVENT" :
                "needs a status array of " + count));
        }
        if (authKeys && !avAuthKeys)
        {
            throw new FabricException(Errno.FI_EINVAL, call + ": FI_AUTH_KEY needs a domain opened with " +
                "auth_key_size FI_AV_AUTH_KEY, the only domains whose AVs hold authorization keys");
        }
        if (userIds && (userIdMode || avAuthKeys || authKeys || fiAddr == null))
        {
            throw new FabricException(Errno.FI_EINVAL, call + ": FI_AV_USER_ID per insert " + (userIdMode ?
                "is invalid on an AV opened with FI_AV_USER_ID; use fi_av_set_user_id" : avAuthKeys ?
                "is invalid on a domain opened with auth_key_size FI_AV_AUTH_KEY; open the AV with " +
                "FI_AV_USER_ID and use fi_av_set_user_id" : authKeys ?
                "cannot be combined with FI_AUTH_KEY: both take fi_addr as input" : "needs the user ids in fi_addr"));
        }
        if (authKeys && fiAddr == null)
        {
            throw new FabricException(Errno.FI_EINVAL, call + ": FI_AUTH_KEY needs the key handles in fi_addr");
        }
        final ShmEventQueue queue = eq;
        if (async && queue == null)
        {
            throw new FabricException(Errno.FI_ENOEQ, call + ": the AV was opened with FI_EVENT and has no " +
                "event queue bound; fi_av_bind one first");
        }

        final AvTable.Entry scratch = new AvTable.Entry();
        int inserted = 0;
        int firstRefused = -1;
        int refusal = 0;
        for (int i = 0; i < count; i++)
        {
            final long input = fiAddr == null ? 0 : fiAddr[i];
            final long result = insertOne(addr[i], userIds ? input : Addresses.FI_ADDR_NOTAVAIL,
                authKeys ? input : Addresses.FI_ADDR_NOTAVAIL, authKeys, scratch);
            final boolean ok = result >= 0;
            if (ok)
            {
                inserted++;
            }
            else if (firstRefused < 0)
            {
                firstRefused = i;
                refusal = (int)-result;
            }
            if (fiAddr != null)
            {
                fiAddr[i] = ok ? fiAddrBase + result : Addresses.FI_ADDR_NOTAVAIL;
            }
            if (syncErr)
            {
                status[i] = ok ? 0 : (int)-result;
            }
            if (async && !ok)
            {
                queue.postError(this, context, i, (int)-result, (int)-result,
                    call + ": address " + i + " \"" + addr[i] + "\" not inserted: " + Errno.strerror((int)-result));
            }
        }
        if (async)
        {
            queue.postEvent(EqEvent.AV_COMPLETE.value(), this, context, inserted);
            return 0;
        }
        final String why = inserted == 0 && firstRefused >= 0 && !syncErr ?
            InsertRefusal.describe(call, firstRefused, addr[firstRefused], refusal, domainName, slotCount) : null;
        if (why != null)
        {
            throw new FabricException(refusal, why); // nothing inserted, no status asked for: 0 would not say why
        }
        return inserted;
    }

    /**
     * @return the index inserted at, or a negated errno.
     */
    private long insertOne(
        final String text, final long userId, final long keyHandle, final boolean withKey, final AvTable.Entry scratch)
    {
        final ShmAddress address;
        try
        {
            address = ShmAddress.parse(text);
        }
        catch (final FabricException ex)
        {
            return -Errno.FI_EINVAL;
        }
        if (!address.isLocal() || !address.domain().equals(domainName))
        {
            return -Errno.FI_EADDRNOTAVAIL;
        }
        if (address.slot() >= slotCount)
        {
            return -Errno.FI_EINVAL;
        }
        int keyIndex = -1;
        long keyGeneration = 0;
        if (withKey)
        {
            // The reference is taken with a CAS on the key's own state word, under the generation validated here:
            // it fails once the key is removed or replaced, and a removal fails once it is taken (AvDescriptor).
            keyIndex = indexOf(keyHandle);
            if (keyIndex < 0 || !table.snapshot(keyIndex, scratch) || scratch.kind != AvDescriptor.KIND_AUTH_KEY ||
                !table.addReference(keyIndex, scratch.generation))
            {
                return -Errno.FI_EINVAL;
            }
            keyGeneration = scratch.generation;
        }
        final int index = table.claim();
        if (index < 0)
        {
            if (withKey)
            {
                table.dropReference(keyIndex, keyGeneration);
            }
            return -Errno.FI_ENOSPC;
        }
        table.publishAddress(index, text.getBytes(StandardCharsets.US_ASCII), address.slot(), address.incarnation(),
            userId, keyIndex, keyGeneration);
        return index;
    }

    @Override
    public void remove(final long[] fiAddr, final int count, final long flags)
    {
        ensureOpen("fi_av_remove");
        if (readOnly)
        {
            throw new FabricException(Errno.FI_EPERM, "fi_av_remove: the AV was opened read-only (FI_READ)");
        }
        if ((flags & ~Flags.FI_AUTH_KEY) != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS, "fi_av_remove: flags 0x" +
                Long.toHexString(flags & ~Flags.FI_AUTH_KEY) + " are not supported; only FI_AUTH_KEY is");
        }
        if (count < 0 || (count > 0 && (fiAddr == null || fiAddr.length < count)))
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_remove: count " + count + " but " +
                (fiAddr == null ? "no fi_addr array" : "an array of " + fiAddr.length));
        }
        final int kind = (flags & Flags.FI_AUTH_KEY) != 0 ? AvDescriptor.KIND_AUTH_KEY : AvDescriptor.KIND_ADDRESS;
        final int[] indices = new int[count];
        final long[] generations = new long[count];
        final long[] keys = new long[count];
        final long[] keyGenerations = new long[count];
        final AvTable.Entry entry = new AvTable.Entry();
        for (int i = 0; i < count; i++)
        {
            final int index = validEntry("fi_av_remove", fiAddr[i], kind, entry);
            for (int j = 0; j < i; j++)
            {
                if (indices[j] == index)
                {
                    throw new FabricException(Errno.FI_EINVAL, "fi_av_remove: fi_addr 0x" +
                        Long.toHexString(fiAddr[i]) + " appears twice in the vector; nothing was removed");
                }
            }
            if (kind == AvDescriptor.KIND_AUTH_KEY && entry.references > 0)
            {
                throw new FabricException(Errno.FI_EBUSY, "fi_av_remove: authorization key 0x" +
                    Long.toHexString(fiAddr[i]) + " is still used by " + entry.references + " address(es) inserted " +
                    "with it or endpoint(s) enabled against it (fi_av(3)); nothing was removed");
            }
            indices[i] = index;
            generations[i] = entry.generation;
            keys[i] = entry.kind == AvDescriptor.KIND_ADDRESS ? entry.authKey : -1;
            keyGenerations[i] = entry.authKeyGeneration;
        }
        int lost = -1;
        int why = AvTable.REMOVED;
        for (int i = 0; i < count; i++)
        {
            final int result = table.remove(indices[i], generations[i]);
            if (result == AvTable.REMOVED)
            {
                if (keys[i] >= 0)
                {
                    // Killed here, this process leaks the key's reference (not recovered; see the class Javadoc).
                    table.dropReference((int)keys[i], keyGenerations[i]);
                }
            }
            else
            {
                lost = i;
                why = result;
            }
        }
        if (lost >= 0)
        {
            throw new FabricException(why == AvTable.IN_USE ? Errno.FI_EBUSY : why == AvTable.STUCK ?
                Errno.FI_EAGAIN : Errno.FI_EINVAL, "fi_av_remove: fi_addr 0x" + Long.toHexString(fiAddr[lost]) +
                (why == AvTable.IN_USE ? " is an authorization key an address was inserted with (or an endpoint " +
                "enabled against) meanwhile" :
                why == AvTable.STUCK ? " stayed locked by a user id update of another thread or process" :
                " was removed by another thread or process meanwhile") + "; the others were removed");
        }
    }

    @Override
    public int lookup(final long fiAddr, final byte[] addr)
    {
        ensureOpen("fi_av_lookup");
        final AvTable.Entry entry = new AvTable.Entry();
        validEntry("fi_av_lookup", fiAddr, AvDescriptor.KIND_ADDRESS, entry);
        return copyOut(entry.bytes, entry.length, addr, true);
    }

    @Override
    public String lookup(final long fiAddr)
    {
        ensureOpen("fi_av_lookup");
        final AvTable.Entry entry = new AvTable.Entry();
        validEntry("fi_av_lookup", fiAddr, AvDescriptor.KIND_ADDRESS, entry);
        return new String(entry.bytes, 0, entry.length, StandardCharsets.US_ASCII);
    }

    @Override
    public int straddr(final String addr, final byte[] buf)
    {
        final byte[] text = straddr(addr).getBytes(StandardCharsets.US_ASCII);
        return copyOut(text, text.length, buf, true);
    }

    @Override
    public String straddr(final String addr)
    {
        ensureOpen("fi_av_straddr");
        try
        {
            return ShmAddress.parse(addr).format();
        }
        catch (final FabricException ex)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_straddr: " + ex.getMessage(), ex);
        }
    }

    @Override
    public long insertAuthKey(final byte[] authKey, final long flags)
    {
        ensureOpen("fi_av_insert_auth_key");
        if (readOnly)
        {
            throw new FabricException(Errno.FI_EPERM, "fi_av_insert_auth_key: the AV was opened read-only (FI_READ)");
        }
        if (flags != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS,
                "fi_av_insert_auth_key: flags 0x" + Long.toHexString(flags) + " are reserved and must be 0");
        }
        if (!avAuthKeys)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insert_auth_key: the AV's domain was not opened with " +
                "auth_key_size FI_AV_AUTH_KEY, which fi_av_insert_auth_key requires");
        }
        if (authKey == null || authKey.length == 0 || authKey.length > ShmCapabilities.MAX_AUTH_KEY_SIZE)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_insert_auth_key: an shm authorization key is 1 to " +
                ShmCapabilities.MAX_AUTH_KEY_SIZE + " bytes, not " + (authKey == null ? "null" : authKey.length));
        }
        final int index = table.claim();
        if (index < 0)
        {
            throw new FabricException(Errno.FI_ENOSPC,
                "fi_av_insert_auth_key: all " + table.entryCount() + " entries of the AV are in use");
        }
        table.publishKey(index, authKey.clone());
        return fiAddrBase + index;
    }

    @Override
    public int lookupAuthKey(final long fiAddr, final byte[] authKey)
    {
        ensureOpen("fi_av_lookup_auth_key");
        final AvTable.Entry entry = new AvTable.Entry();
        final int index = indexOf(fiAddr);
        if (index < 0 || !table.snapshot(index, entry))
        {
            throw notValid("fi_av_lookup_auth_key", fiAddr);
        }
        if (entry.kind == AvDescriptor.KIND_ADDRESS)
        {
            if (entry.authKey < 0)
            {
                throw new FabricException(Errno.FI_ENOKEY, "fi_av_lookup_auth_key: fi_addr 0x" +
                    Long.toHexString(fiAddr) + " was inserted without an authorization key");
            }
            final long keyGeneration = entry.authKeyGeneration;
            if (!table.snapshot((int)entry.authKey, entry) || entry.kind != AvDescriptor.KIND_AUTH_KEY ||
                entry.generation != keyGeneration)
            {
                throw notValid("fi_av_lookup_auth_key", fiAddr);
            }
        }
        return copyOut(entry.bytes, entry.length, authKey, false);
    }

    @Override
    public void setUserId(final long fiAddr, final long userId, final long flags)
    {
        ensureOpen("fi_av_set_user_id");
        if (readOnly)
        {
            throw new FabricException(Errno.FI_EPERM, "fi_av_set_user_id: the AV was opened read-only (FI_READ)");
        }
        if ((flags & ~Flags.FI_AUTH_KEY) != 0)
        {
            throw new FabricException(Errno.FI_EBADFLAGS, "fi_av_set_user_id: flags 0x" +
                Long.toHexString(flags & ~Flags.FI_AUTH_KEY) + " are not supported; only FI_AUTH_KEY is");
        }
        if (!userIdMode)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_set_user_id: the AV was opened without " +
                "FI_AV_USER_ID; pass user ids to insert with the FI_AV_USER_ID flag instead");
        }
        final int kind = (flags & Flags.FI_AUTH_KEY) != 0 ? AvDescriptor.KIND_AUTH_KEY : AvDescriptor.KIND_ADDRESS;
        final AvTable.Entry entry = new AvTable.Entry();
        final int index = validEntry("fi_av_set_user_id", fiAddr, kind, entry);
        final int result = table.userId(index, entry.generation, userId); // Only to the publication validated.
        if (result == AvTable.GONE)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_av_set_user_id: fi_addr 0x" + Long.toHexString(fiAddr) +
                " was removed by another thread or process meanwhile");
        }
        if (result == AvTable.STUCK)
        {
            throw new FabricException(Errno.FI_EAGAIN, "fi_av_set_user_id: fi_addr 0x" + Long.toHexString(fiAddr) +
                " stayed locked by a user id update of another thread or process; try again");
        }
    }

    @Override
    public long userId(final long fiAddr)
    {
        ensureOpen("userId");
        final AvTable.Entry entry = new AvTable.Entry();
        final int index = indexOf(fiAddr);
        if (index < 0 || !table.snapshot(index, entry))
        {
            throw notValid("userId", fiAddr);
        }
        return entry.userId;
    }

    /**
     * Data path: the table index an fi_addr_t names, without allocating. The low {@link #INDEX_BITS} bits name the
     * entry; the top rx_ctx_bits (fi_rx_addr's receive context index) are ignored here ({@link #rxIndexOf}); any
     * other bit set (an fi_group_addr group id: shm has no peer groups) names no entry.
     *
     * @param fiAddr an fi_addr_t of this AV.
     * @return the index, or -1 when it is FI_ADDR_NOTAVAIL, carries a group id or is outside the table.
     */
    public int indexOf(final long fiAddr)
    {
        if ((fiAddr & groupMask) != 0)
        {
            return -1;
        }
        final long index = (fiAddr & INDEX_MASK) - fiAddrBase;
        return index < 0 || index >= table.entryCount() ? -1 : (int)index;
    }

    /**
     * Data path: the receive context an fi_addr_t names (fi_rx_addr): its top rx_ctx_bits, 0 when the AV has none.
     *
     * @param fiAddr an fi_addr_t of this AV.
     * @return the receive context index.
     */
    public int rxIndexOf(final long fiAddr)
    {
        return rxCtxBits == 0 ? 0 : (int)(fiAddr >>> (64 - rxCtxBits));
    }

    /**
     * Data path: the state word of the entry an fi_addr_t names (one volatile read, see {@link AvTable#stateWord}),
     * for callers that cache what they resolved from it.
     *
     * @param fiAddr an fi_addr_t of this AV.
     * @return the word, or -1 when fiAddr names no entry.
     */
    public long entryState(final long fiAddr)
    {
        return table.stateWord(indexOf(fiAddr));
    }

    /**
     * Data path: {@link #entryState} for a caller that has the index from {@link #indexOf} already.
     *
     * @param index a table index.
     * @return the word, or -1 when the index is outside the table.
     */
    public long entryStateAt(final int index)
    {
        return table.stateWord(index);
    }

    /**
     * Data path: resolve a destination fi_addr_t to the peer's endpoint slot, without allocating or locking.
     *
     * @param fiAddr an fi_addr_t of this AV.
     * @return the slot, or -1 when fiAddr names no valid address.
     */
    public int slotOf(final long fiAddr)
    {
        return table.slot(indexOf(fiAddr));
    }

    /**
     * Data path: the incarnation an fi_addr_t's address names, without allocating.
     *
     * @param fiAddr an fi_addr_t of this AV.
     * @return the incarnation (0 when the address names none), or -1 when fiAddr names no valid address.
     */
    public long incarnationOf(final long fiAddr)
    {
        return table.incarnation(indexOf(fiAddr));
    }

    /**
     * The digest ({@code AuthKeys.digest}) of the authorization key the AV associates with an address: the key its
     * insert named with FI_AUTH_KEY, 0 for none. The sending side's connect path, once per receiver incarnation: it
     * allocates one snapshot entry.
     *
     * @param fiAddr an fi_addr_t of this AV naming an address.
     * @return the digest, 0 when the address has no key (or no longer names an address).
     */
    public long authKeyDigestOf(final long fiAddr)
    {
        final AvTable.Entry entry = new AvTable.Entry();
        final int index = indexOf(fiAddr);
        if (index < 0 || !table.snapshot(index, entry) || entry.kind != AvDescriptor.KIND_ADDRESS ||
            entry.authKey < 0)
        {
            return 0;
        }
        final long keyGeneration = entry.authKeyGeneration;
        if (!table.snapshot((int)entry.authKey, entry) || entry.kind != AvDescriptor.KIND_AUTH_KEY ||
            entry.generation != keyGeneration)
        {
            return 0;
        }
        return AuthKeyDigest.of(entry.bytes, entry.length);
    }

    /**
     * The digest of the key an authorization key fi_addr names (fi_av_insert_auth_key), for a memory region
     * registered with FI_AUTH_KEY. Control path (allocates).
     *
     * @param fiAddr an fi_addr of this AV.
     * @return the digest, 0 when it names no authorization key.
     */
    public long keyHandleDigest(final long fiAddr)
    {
        final AvTable.Entry entry = new AvTable.Entry();
        final int index = indexOf(fiAddr);
        return index >= 0 && table.snapshot(index, entry) && entry.kind == AvDescriptor.KIND_AUTH_KEY ?
            AuthKeyDigest.of(entry.bytes, entry.length) : 0;
    }

    private int validEntry(final String call, final long fiAddr, final int kind, final AvTable.Entry entry)
    {
        final int index = indexOf(fiAddr);
        if (index < 0 || !table.snapshot(index, entry) || entry.kind != kind)
        {
            throw notValid(call, fiAddr);
        }
        return index;
    }

    private FabricException notValid(final String call, final long fiAddr)
    {
        if (table.fault() != null)
        {
            return new FabricException(Errno.FI_EIO, call + ": " + table.fault());
        }
        final int index = indexOf(fiAddr);
        final String why = fiAddr == Addresses.FI_ADDR_NOTAVAIL ? "is FI_ADDR_NOTAVAIL" : index < 0 ?
            "is outside the table (fi_addr values 0x" + Long.toHexString(fiAddrBase) + " + index, " +
            table.entryCount() + " entries)" : "names no valid entry of that kind (removed, never inserted, or " +
            "an authorization key without FI_AUTH_KEY)";
        return new FabricException(Errno.FI_EINVAL, call + ": fi_addr 0x" + Long.toHexString(fiAddr) + " " + why);
    }

    private static int copyOut(final byte[] src, final int length, final byte[] dst, final boolean nul)
    {
        if (dst != null)
        {
            System.arraycopy(src, 0, dst, 0, Math.min(length, dst.length));
            if (nul && dst.length > length)
            {
                dst[length] = 0;
            }
        }
        return nul ? length + 1 : length;
    }

    @Override
    protected String describe()
    {
        return "address vector" + (path == null ? "" : " '" + attr.name() + "'");
    }

    @Override
    protected synchronized void doClose()
    {
        final ShmEventQueue queue = eq;
        if (queue != null)
        {
            queue.release();
            eq = null;
        }
        // No explicit unmap or free: a data path call of another thread may have passed its bounds check already
        // and still read the table. Detaching makes every later lookup return -1; the memory (mapping or direct
        // buffer) goes with this object when the garbage collector finds it unreachable.
        table.detach();
        domain.release();
    }
}
