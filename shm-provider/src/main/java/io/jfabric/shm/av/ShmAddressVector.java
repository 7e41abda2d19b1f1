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
 * gives {@link Errno#FI_EINVAL}, a full table {@link Errno#FI_ENOSPC}. A synchronous insert without FI_SYNC_ERR
 * that inserts nothing throws the first refusal's errno with a message saying why ({@link InsertRefusal}), as a
 * count of 0 would not. fi_av_insertsvc and fi_av_insertsym make their addresses from node and service names
 * ({@link ServiceAddresses}), then insert them as fi_av_insert does.
 * <p>
 * <b>fi_addr_t values</b> are {@link #fiAddrBase}{@code  + index} in the low 32 bits (FI_AV_TABLE: the index; a
 * named FI_AV_MAP: map_addr + index), with fi_rx_addr's receive context index in the top rx_ctx_bits and no group
 * id: {@link AvAddressing} says how each value names an entry.
 * <p>
 * <b>Named AVs</b> live in {@code <root>/<domain>.<name>.<region nonce>.av} ({@link AvDescriptor#fileName}: only
 * processes of that domain region open it), created and validated like the domain region (see
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
    private static final long INSERT_FLAGS = Flags.FI_MORE | Flags.FI_SYNC_ERR | Flags.FI_AV_USER_ID | Flags.FI_AUTH_KEY;

    private final DomainContext domain;
    private final AvAttr attr;
    private final String domainName;
    private final int slotCount;
    private final long fiAddrBase;
    private final boolean readOnly;
    private final boolean async;
    private final boolean userIdMode;
    private final boolean avAuthKeys;
    private final Path path;
    private final GuardedAvTable table;
    private final AvAddressing addressing;
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
        this.readOnly = (attr.flags() & Flags.FI_READ) != 0;
        this.async = (attr.flags() & Flags.FI_EVENT) != 0;
        this.userIdMode = (attr.flags() & Flags.FI_AV_USER_ID) != 0;
        this.avAuthKeys = domain.attr().authKeySize() == DomainAttr.FI_AV_AUTH_KEY;
        // The buffer keeps the mapping reachable. A truncated file fails this AV alone, with FI_EIO.
        this.table = new GuardedAvTable(new AvTable(new UnsafeBuffer(memory), entries));
        this.addressing = new AvAddressing(table, fiAddrBase, attr.rxCtxBits());
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
            address = ServiceAddresses.of(node == null ? LocalHost.name() : node, service, domainName);
        }
        return insertAll("fi_av_insertsvc", new String[]{ address }, 1, fiAddr, flags, context, status);
    }

    @Override
    public int insertsym(
        final String node, final int nodecnt, final String service, final int svccnt, final long[] fiAddr,
        final long flags, final long context, final int[] status)
    {
        ensureOpen("fi_av_insertsym");
        final String[] addresses = ServiceAddresses.symmetric(node, nodecnt, service, svccnt, entries(), domainName);
        return insertAll("fi_av_insertsym", addresses, addresses.length, fiAddr, flags, context, status);
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
            final int index = addressing.validEntry("fi_av_remove", fiAddr[i], kind, entry);
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
        addressing.validEntry("fi_av_lookup", fiAddr, AvDescriptor.KIND_ADDRESS, entry);
        return copyOut(entry.bytes, entry.length, addr, true);
    }

    @Override
    public String lookup(final long fiAddr)
    {
        ensureOpen("fi_av_lookup");
        final AvTable.Entry entry = new AvTable.Entry();
        addressing.validEntry("fi_av_lookup", fiAddr, AvDescriptor.KIND_ADDRESS, entry);
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
            throw addressing.notValid("fi_av_lookup_auth_key", fiAddr);
        }
        if (entry.kind == AvDescriptor.KIND_ADDRESS)
        {
            if (entry.authKey < 0)
            {
                throw new FabricException(Errno.FI_ENOKEY, "fi_av_lookup_auth_key: fi_addr 0x" +
                    Long.toHexString(fiAddr) + " was inserted without an authorization key");
            }
            if (!addressing.keyOf(entry))
            {
                throw addressing.notValid("fi_av_lookup_auth_key", fiAddr);
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
        final int index = addressing.validEntry("fi_av_set_user_id", fiAddr, kind, entry);
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
            throw addressing.notValid("userId", fiAddr);
        }
        return entry.userId;
    }

    /**
     * Data path: the table index an fi_addr_t names, without allocating ({@link AvAddressing#indexOf}).
     *
     * @param fiAddr an fi_addr_t of this AV.
     * @return the index, or -1 when it is FI_ADDR_NOTAVAIL, carries a group id or is outside the table.
     */
    public int indexOf(final long fiAddr)
    {
        return addressing.indexOf(fiAddr);
    }

    /**
     * Data path: the receive context an fi_addr_t names (fi_rx_addr): its top rx_ctx_bits, 0 when the AV has none.
     *
     * @param fiAddr an fi_addr_t of this AV.
     * @return the receive context index.
     */
    public int rxIndexOf(final long fiAddr)
    {
        return addressing.rxIndexOf(fiAddr);
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
        return addressing.authKeyDigestOf(fiAddr);
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
        return addressing.keyHandleDigest(fiAddr);
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
