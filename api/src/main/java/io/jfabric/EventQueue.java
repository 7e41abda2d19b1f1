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
package io.jfabric;

/**
 * An event queue ({@code struct fid_eq}, fi_eq(3)): where control operations report their completion (memory
 * registration with FI_MR_COMPLETE, address vector inserts with FI_AV_COMPLETE) and asynchronous errors, and
 * where the application may insert events of its own. Open one with {@link Fabric#eqOpen(EqAttr, long)}; bind
 * it to a domain or address vector to receive their events.
 * <p>
 * <b>Reads return codes, as in C.</b> {@link #read}, {@link #readErr}, {@link #write} and {@link #sread} never
 * throw and allocate nothing: they return 1 on success (the number of entries read or written, at most one per
 * call as the page says; C returns the number of bytes, which has no meaning for a Java holder) or a negated
 * libfabric errno:
 * <ul>
 *   <li>{@code -FI_EAGAIN}: nothing to read (or, for write, no room; for sread, the timeout expired or the
 *       thread was interrupted with nothing to read).</li>
 *   <li>{@code -FI_EAVAIL}: an error is waiting; fetch it with {@link #readErr}. As the page says, errors go to a
 *       separate error queue and read fails with FI_EAVAIL while any error is in it, so errors are seen before
 *       the events queued ahead of them.</li>
 *   <li>{@code -FI_EOVERRUN}: write on an overrun queue. A provider that must report an event on a full queue
 *       cannot wait for room, so the queue becomes <em>overrun</em> (NOTES of the page): reads still return every
 *       event and error queued before, then read keeps returning {@code -FI_EAVAIL} and readErr keeps returning
 *       an error entry with {@code err == FI_EOVERRUN} (fid: this queue). The state is fatal and permanent; close
 *       the queue and open another.</li>
 *   <li>{@code -FI_EBADF}: the queue is closed; a thread blocked in sread when another closes it wakes with
 *       this.</li>
 *   <li>{@code -FI_EINVAL}: a null holder, or write on a queue opened without {@link Flags#FI_WRITE}.</li>
 *   <li>{@code -FI_EBADFLAGS}: a flag the call does not take ({@link Flags#FI_PEEK} is the only read flag; write
 *       takes none).</li>
 *   <li>{@code -FI_ENOSYS}: sread on a queue opened with {@link WaitObj#NONE}.</li>
 * </ul>
 * <p>
 * Thread safe: any thread may read, write, sread or close, and providers post from their own threads.
 * {@link #close()} fails with {@link Errno#FI_EBUSY} while a domain, address vector or memory region is bound
 * to the queue; events still queued when it closes are lost.
 */
public interface EventQueue extends Fid
{
    /**
     * @return a copy of the attributes the queue was opened with, its {@code size} resolved to the actual depth.
     */
    EqAttr attr();

    /**
     * {@code fi_eq_read}: take the next event without blocking.
     *
     * @param entry receives the event; every field is overwritten on success and untouched otherwise.
     * @param flags 0, or {@link Flags#FI_PEEK} to leave the event queued for the next read.
     * @return 1 when an event was read; {@code -FI_EAGAIN} when there is none; {@code -FI_EAVAIL} when an error
     * is waiting; {@code -FI_EBADF}, {@code -FI_EINVAL}, {@code -FI_EBADFLAGS}.
     */
    int read(EqEntry entry, long flags);

    /**
     * {@code fi_eq_readerr}: take the next error without blocking.
     *
     * @param entry receives the error; every field is overwritten on success, its error data truncated to the
     *              entry's buffer.
     * @param flags 0, or {@link Flags#FI_PEEK} to leave the error queued.
     * @return 1 when an error was read; {@code -FI_EAGAIN} when no error is waiting; {@code -FI_EBADF},
     * {@code -FI_EINVAL}, {@code -FI_EBADFLAGS}.
     */
    int readErr(EqErrEntry entry, long flags);

    /**
     * {@code fi_eq_write}: insert an application event at the tail, to be read like any other. Requires the
     * queue to have been opened with {@link Flags#FI_WRITE}. The page gives the application no way to insert an
     * error entry (there is no {@code fi_eq_writeerr}); errors come only from the provider.
     *
     * @param event the event type (any value; libfabric's are {@link EqEvent}'s).
     * @param entry fid, context and data of the event; {@link EqEntry#event()} is ignored. Copied: the holder
     *              may be reused at once.
     * @param flags 0.
     * @return 1 when the event was queued; {@code -FI_EAGAIN} when the queue is full (nothing was queued; read
     * some events and retry); {@code -FI_EOVERRUN} when the queue is overrun; {@code -FI_EINVAL} without
     * FI_WRITE or with a null holder; {@code -FI_EBADF}, {@code -FI_EBADFLAGS}.
     */
    int write(int event, EqEntry entry, long flags);

    /**
     * {@code fi_eq_sread}: as {@link #read}, blocking until an event or error is there, the timeout expires,
     * the thread is interrupted, or the queue is closed. Waiting parks the thread (no spinning) for every
     * supported wait object. An interrupt is treated as the page's "signaled by some external source": the call
     * returns, and the thread's interrupt status is kept set.
     *
     * @param entry         receives the event.
     * @param timeoutMillis the longest wait in milliseconds; negative waits forever; 0 does not wait.
     * @param flags         0 or {@link Flags#FI_PEEK}.
     * @return 1 when an event was read; {@code -FI_EAGAIN} when the timeout expired or the thread was
     * interrupted with nothing to read; {@code -FI_EAVAIL} when an error is waiting; {@code -FI_EBADF} when the
     * queue is or becomes closed; {@code -FI_ENOSYS} when the queue's wait object is {@link WaitObj#NONE};
     * {@code -FI_EINVAL}, {@code -FI_EBADFLAGS}.
     */
    int sread(EqEntry entry, int timeoutMillis, long flags);

    /**
     * {@code fi_eq_strerror}: a printable text for a provider error code and its error data.
     *
     * @param provErrno the {@link EqErrEntry#provErrno()} of an error.
     * @param errData   the {@link EqErrEntry#errData()} of the same error, or null; read up to its first zero
     *                  byte.
     * @return the text, never null.
     */
    String strerror(int provErrno, byte[] errData);

    /**
     * {@code fi_eq_strerror} for a whole error entry, using exactly its {@link EqErrEntry#errDataSize()} bytes.
     *
     * @param entry an error read with {@link #readErr}.
     * @return the text, never null.
     */
    default String strerror(final EqErrEntry entry)
    {
        return strerror(entry.provErrno(), java.util.Arrays.copyOf(entry.errData(), entry.errDataSize()));
    }
}
