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
package io.jfabric.shm.ep;

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqEntries;
import io.jfabric.CqErrEntry;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.Errno;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.shm.domain.ShmDomain;
import io.jfabric.shm.region.SlotDescriptor;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * One endpoint of a two-JVM test with its own AV and CQ, in either process: opens and enables them, inserts peers,
 * and keeps a log of every completion and error completion it reads, so a test waits for an operation by its
 * context and sees everything else that arrived when it fails. Manual progress: {@link #pump()} (a CQ read) is what
 * moves data. One thread only.
 */
final class EpSide implements AutoCloseable
{
    /** Longest a test waits for one completion. */
    static final long TIMEOUT_MS = 20_000;

    /** A successful completion as read with fi_cq_readfrom. */
    record Completion(long context, long flags, long len, long bufOffset, long data, long tag, long srcAddr)
    {
        @Override
        public String toString()
        {
            return "Completion{ctx=" + context + ", flags=0x" + Long.toHexString(flags) + ", len=" + len +
                ", bufOffset=" + bufOffset + ", data=0x" + Long.toHexString(data) + ", tag=0x" +
                Long.toHexString(tag) + ", src=" + srcAddr + '}';
        }
    }

    /** An error completion as read with fi_cq_readerr. */
    record ErrCompletion(long context, long flags, long len, long olen, int err, long tag, long srcAddr)
    {
        @Override
        public String toString()
        {
            return "ErrCompletion{ctx=" + context + ", flags=0x" + Long.toHexString(flags) + ", len=" + len +
                ", olen=" + olen + ", err=" + err + " (" + Errno.name(err) + "), tag=0x" + Long.toHexString(tag) +
                ", src=" + srcAddr + '}';
        }
    }

    final AddressVector av;
    final CompletionQueue cq;
    final Endpoint ep;
    final String name;
    private final CqEntries entries = new CqEntries(16);
    private final CqErrEntry err = new CqErrEntry();
    private final List<Completion> done = new ArrayList<>();
    private final List<ErrCompletion> errors = new ArrayList<>();

    private EpSide(final AddressVector av, final CompletionQueue cq, final Endpoint ep)
    {
        this.av = av;
        this.cq = cq;
        this.ep = ep;
        this.name = new String(ep.getname(), StandardCharsets.US_ASCII);
    }

    /**
     * Open an AV, a CQ of {@code format} and an endpoint, bind them and enable the endpoint.
     *
     * @param domain    the domain.
     * @param info      the endpoint's info.
     * @param format    the CQ's format.
     * @param bindFlags CQ bind flags (FI_TRANSMIT | FI_RECV, optionally FI_SELECTIVE_COMPLETION).
     * @return the enabled side.
     */
    static EpSide open(final Domain domain, final Info info, final CqFormat format, final long bindFlags)
    {
        final AddressVector av = domain.avOpen(new AvAttr(), 0);
        CompletionQueue cq = null;
        Endpoint ep = null;
        try
        {
            cq = domain.cqOpen(new CqAttr().format(format), 0);
            ep = domain.endpoint(info, 0);
            ep.bind(av, 0);
            ep.bind(cq, bindFlags);
            ep.enable();
            return new EpSide(av, cq, ep);
        }
        catch (final RuntimeException | Error ex)
        {
            closeQuietly(ep, ex);
            closeQuietly(cq, ex);
            closeQuietly(av, ex);
            throw ex;
        }
    }

    private static void closeQuietly(final AutoCloseable c, final Throwable cause)
    {
        if (c != null)
        {
            try
            {
                c.close();
            }
            catch (final Exception ex)
            {
                cause.addSuppressed(ex);
            }
        }
    }

    /**
     * @param addr a peer's getname text.
     * @return its fi_addr in this side's AV.
     */
    long insert(final String addr)
    {
        final long[] out = new long[1];
        final int n = av.insert(new String[] { addr }, 1, out, 0, 0);
        if (n != 1)
        {
            throw new AssertionError("fi_av_insert of " + addr + " inserted " + n);
        }
        return out[0];
    }

    /**
     * Read the CQ once (progressing the endpoint) and log what it returned.
     *
     * @return what fi_cq_readfrom returned.
     */
    int pump()
    {
        final int n = cq.readFrom(entries, entries.capacity());
        if (n > 0)
        {
            for (int i = 0; i < n; i++)
            {
                done.add(new Completion(entries.opContext[i], entries.flags[i], entries.len[i],
                    entries.bufOffset[i], entries.data[i], entries.tag[i], entries.srcAddr[i]));
            }
        }
        else if (n == -Errno.FI_EAVAIL)
        {
            final int r = cq.readErr(err, 0);
            if (r != 1)
            {
                throw new AssertionError("fi_cq_readfrom gave FI_EAVAIL but fi_cq_readerr returned " + r);
            }
            errors.add(new ErrCompletion(err.opContext, err.flags, err.len, err.olen, err.err, err.tag, err.srcAddr));
        }
        else if (n != -Errno.FI_EAGAIN)
        {
            throw new AssertionError("fi_cq_readfrom returned " + n + " (" + Errno.name(-n) + ")");
        }
        return n;
    }

    /**
     * Progress until the operation with {@code context} completed successfully and take its completion.
     *
     * @param context the operation's context.
     * @return its completion.
     */
    Completion await(final long context)
    {
        return await(context, TIMEOUT_MS);
    }

    /**
     * @param context   the operation's context.
     * @param timeoutMs how long to progress.
     * @return the completion.
     */
    Completion await(final long context, final long timeoutMs)
    {
        return awaitEntry(context, timeoutMs, this::take, this::takeError, "completion");
    }

    /**
     * Progress until the operation with {@code context} completed in error and take that entry.
     *
     * @param context the operation's context.
     * @return its error completion.
     */
    ErrCompletion awaitError(final long context)
    {
        return awaitEntry(context, TIMEOUT_MS, this::takeError, this::take, "error completion");
    }

    /** Progress until {@code wanted} finds the entry of {@code context}; fail at once if {@code other} finds one. */
    private <T> T awaitEntry(
        final long context, final long timeoutMs, final LongFunction<T> wanted, final LongFunction<?> other,
        final String what)
    {
        final long deadline = System.currentTimeMillis() + timeoutMs;
        while (true)
        {
            final T found = wanted.apply(context);
            if (found != null)
            {
                return found;
            }
            final Object wrong = other.apply(context);
            if (wrong != null)
            {
                throw new AssertionError("wanted a " + what + " for context " + context + ", it completed as " +
                    wrong + "; " + log());
            }
            if (System.currentTimeMillis() > deadline)
            {
                throw new AssertionError("no " + what + " for context " + context + " within " + timeoutMs +
                    " ms; " + log());
            }
            idle(pump());
        }
    }

    /**
     * Progress for {@code ms} and take every completion of {@code context} that arrived (successes only).
     *
     * @param context the context.
     * @param ms      milliseconds to progress first.
     * @return the completions in CQ order.
     */
    List<Completion> drain(final long context, final long ms)
    {
        progressFor(ms);
        final List<Completion> out = new ArrayList<>();
        for (final Iterator<Completion> it = done.iterator(); it.hasNext(); )
        {
            final Completion c = it.next();
            if (c.context() == context)
            {
                it.remove();
                out.add(c);
            }
        }
        return out;
    }

    /**
     * Progress for {@code ms} milliseconds.
     *
     * @param ms milliseconds.
     */
    void progressFor(final long ms)
    {
        final long deadline = System.currentTimeMillis() + ms;
        while (System.currentTimeMillis() < deadline)
        {
            idle(pump());
        }
    }

    /**
     * @param context a context.
     * @return whether any completion or error completion of {@code context} has been read so far.
     */
    boolean seen(final long context)
    {
        return done.stream().anyMatch(c -> c.context() == context) ||
            errors.stream().anyMatch(e -> e.context() == context);
    }

    /**
     * Retry a post while it returns -FI_EAGAIN, progressing in between.
     *
     * @param post the post.
     * @return how many times it returned -FI_EAGAIN before it was taken.
     */
    long retry(final LongSupplier post)
    {
        final long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        long eagain = 0;
        long rc;
        while ((rc = post.getAsLong()) == -Errno.FI_EAGAIN)
        {
            eagain++;
            if (System.currentTimeMillis() > deadline)
            {
                throw new AssertionError("a post returned FI_EAGAIN for " + TIMEOUT_MS + " ms; " + log());
            }
            idle(pump());
        }
        if (rc != 0)
        {
            throw new AssertionError("a post returned " + rc + " (" + Errno.name((int)-rc) + "); " + log());
        }
        return eagain;
    }

    /**
     * A receive of a whole fresh buffer.
     *
     * @param buf     the buffer.
     * @param src     source or FI_ADDR_UNSPEC.
     * @param context context.
     */
    void recv(final ByteBuffer buf, final long src, final long context)
    {
        retry(() -> ep.recv(buf, 0, buf.capacity(), 0, src, context));
    }

    /**
     * @param context a context.
     * @return the error completion of {@code context} read so far (taken from the log), or null.
     */
    ErrCompletion takeError(final long context)
    {
        return takeFirst(errors, e -> e.context() == context);
    }

    /**
     * @param context a context.
     * @return the successful completion of {@code context} read so far (taken from the log), or null.
     */
    Completion take(final long context)
    {
        return takeFirst(done, c -> c.context() == context);
    }

    private static <T> T takeFirst(final List<T> log, final Predicate<T> match)
    {
        for (final Iterator<T> it = log.iterator(); it.hasNext(); )
        {
            final T entry = it.next();
            if (match.test(entry))
            {
                it.remove();
                return entry;
            }
        }
        return null;
    }

    private static void idle(final int pumped)
    {
        if (pumped <= 0)
        {
            Thread.onSpinWait();
        }
    }

    /**
     * @param domain     the domain the endpoint was opened from.
     * @param statOffset a path counter's offset in the slot ({@code SlotDescriptor.STAT_*_OFFSET}).
     * @return how many sends of this endpoint took that path.
     */
    long pathCount(final Domain domain, final int statOffset)
    {
        final ShmDomain shm = (ShmDomain)domain;
        return shm.region().buffer().getLongVolatile(
            SlotDescriptor.statOffset(shm.region().geometry(), ((ShmEndpoint)ep).slot(), statOffset));
    }

    /** @return what the log holds, for failure messages. */
    String log()
    {
        return "completions read and not taken: " + done + ", errors: " + errors;
    }

    @Override
    public void close()
    {
        try
        {
            ep.close();
        }
        finally
        {
            try
            {
                cq.close();
            }
            finally
            {
                av.close();
            }
        }
    }
}
