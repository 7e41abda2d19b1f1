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
package io.jfabric.shm.match;

/**
 * Where the {@link ReceiveMatcher} reports finished receive-side operations (receives, peeks, claims, discards,
 * multi-receive buffer releases, cancels). Implemented by the endpoint: it writes the CQ entry (honouring
 * FI_SELECTIVE_COMPLETION and the operation's FI_COMPLETION flag, which the matcher passes through in
 * {@code opFlags}) and raises the FI_RECV counter.
 * <p>
 * Each completion names the sender of the message it is about ({@code senderId}, the value the matcher's
 * {@code begin} or {@code deliver} was given for it), or {@link #NO_SENDER} when it is about no message (a cancel,
 * a peek that found nothing), so a receive context shared by several endpoints can route it.
 * <p>
 * Called on the thread that progresses the endpoint or posts the receive; must not allocate.
 */
public interface RecvCompletionSink
{
    /** {@code senderId} of a completion that is about no message: a cancel, a peek that found nothing. */
    long NO_SENDER = -1L;

    /** {@code bufOffset} of completions that placed no data (peek, discard): C's {@code buf == NULL}. */
    long NO_BUFFER = -1;

    /**
     * A successful completion.
     *
     * @param senderId  {@code (slot << 32) | incarnation} of the message's sender, as the matcher was given it.
     * @param context   the receive's context.
     * @param opFlags   the flags the receive was posted with (FI_COMPLETION, FI_MULTI_RECV, ...).
     * @param cqFlags   completion flags: FI_RECV | FI_MSG or FI_TAGGED, plus FI_REMOTE_CQ_DATA, FI_MULTI_RECV
     *                  (buffer released), FI_PEEK / FI_CLAIM as fi_tagged(3) says.
     * @param len       bytes placed.
     * @param bufOffset absolute index in the receive's (first) buffer where the data starts.
     * @param data      remote CQ data (valid with FI_REMOTE_CQ_DATA).
     * @param tag       the message's tag.
     * @param srcAddr   sender's fi_addr, or FI_ADDR_NOTAVAIL.
     */
    void complete(
        long senderId, long context, long opFlags, long cqFlags, long len, long bufOffset, long data, long tag,
        long srcAddr);

    /**
     * Whether the next successful receive completion needs the sender's fi_addr: when it does not (its entry goes
     * where no source is read, or nowhere), the matcher skips resolving it and passes FI_ADDR_NOTAVAIL.
     *
     * @return true unless the source address would be thrown away.
     */
    default boolean wantsSource()
    {
        return true;
    }

    /**
     * Whether {@code entries} more completions can be written now (the completion queue's free room). A post or
     * cancel that would complete at once asks first and returns -FI_EAGAIN when not, so that no call succeeds whose
     * completion cannot be written (fi_domain(3), resource management: a full CQ is FI_EAGAIN).
     *
     * @param entries completions about to be written.
     * @return true when they all fit.
     */
    default boolean hasRoom(final int entries)
    {
        return true;
    }

    /**
     * An error completion (always reported, whatever the selective completion settings).
     *
     * @param senderId  the message's sender as for {@link #complete}, or {@link #NO_SENDER} when no message is
     *                  involved (a cancel, a peek that found nothing).
     * @param context   the receive's context.
     * @param cqFlags   completion flags as for {@link #complete}.
     * @param len       bytes placed.
     * @param bufOffset where the data starts.
     * @param data      remote CQ data.
     * @param tag       tag.
     * @param olen      bytes that did not fit (FI_ETRUNC), else 0.
     * @param errno     positive errno: FI_ETRUNC, FI_ECANCELED, FI_ENOMSG.
     * @param srcAddr   sender's fi_addr, or FI_ADDR_NOTAVAIL.
     */
    void error(
        long senderId, long context, long cqFlags, long len, long bufOffset, long data, long tag, long olen, int errno,
        long srcAddr);
}
