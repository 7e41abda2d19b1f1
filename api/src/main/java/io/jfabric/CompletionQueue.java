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
 * A completion queue ({@code struct fid_cq}, fi_cq(3)).
 * <p>
 * Every operation but {@link #close()} and {@link #strerror} is data path: it returns a count or a negated errno,
 * never throws and never allocates. With manual data progress (fi_domain(3)) reading a queue also progresses the
 * endpoints bound to it: their receive rings are drained, messages matched and completions written. A read returns
 * {@code -FI_EAGAIN} when nothing is ready and {@code -FI_EAVAIL} when the entry at the head is an error, which
 * {@link #readErr} then takes. Closing fails with FI_EBUSY while an endpoint is bound to it.
 * <p>
 * Thread safety is the domain's threading model: under FI_THREAD_SAFE any thread may read; otherwise the
 * application serializes reads.
 */
public interface CompletionQueue extends Fid
{
    /** @return a copy of the attributes in force (size and format as chosen by the provider). */
    CqAttr attr();

    /**
     * {@code fi_cq_read}.
     *
     * @param entries receives the entries.
     * @param count   most entries to read, at most {@code entries.capacity()}.
     * @return entries read (&gt; 0), {@code -FI_EAGAIN}, {@code -FI_EAVAIL}, {@code -FI_EINVAL}, {@code -FI_EBADF}.
     */
    int read(CqEntries entries, int count);

    /**
     * {@code fi_cq_readfrom}: as {@link #read}, also filling {@link CqEntries#srcAddr} (the sender's fi_addr, its
     * user id when the AV uses FI_AV_USER_ID, or FI_ADDR_NOTAVAIL when the sender is not in the AV).
     *
     * @param entries receives the entries.
     * @param count   most entries to read.
     * @return as {@link #read}.
     */
    int readFrom(CqEntries entries, int count);

    /**
     * {@code fi_cq_readerr}: takes the error entry at the head.
     *
     * @param entry receives it.
     * @param flags 0.
     * @return 1, or {@code -FI_EAGAIN} when the head is not an error.
     */
    int readErr(CqErrEntry entry, long flags);

    /**
     * {@code fi_cq_sread}: waits up to {@code timeoutMs} for at least one entry (or the threshold of
     * FI_CQ_COND_THRESHOLD).
     *
     * @param timeoutMs milliseconds, negative for ever.
     * @return as {@link #read}, or {@code -FI_EAGAIN} on timeout or {@link #signal()}; {@code -FI_ENOSYS} for
     * FI_WAIT_NONE.
     */
    int sread(CqEntries entries, int count, int timeoutMs);

    /** @return {@code fi_cq_sreadfrom}. */
    int sreadFrom(CqEntries entries, int count, int timeoutMs);

    /**
     * {@code fi_cq_signal}: wakes a thread blocked in sread, which returns {@code -FI_EAGAIN}.
     *
     * @return 0, or {@code -FI_EBADF} once closed.
     */
    int signal();

    /**
     * {@code fi_cq_strerror}.
     *
     * @param provErrno provider errno of an error entry.
     * @param errData   its error data.
     * @return a readable description.
     */
    String strerror(int provErrno, byte[] errData);
}
