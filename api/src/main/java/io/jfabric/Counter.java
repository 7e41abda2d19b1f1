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
 * A completion counter ({@code struct fid_cntr}, fi_cntr(3)): a success count and an error count.
 * <p>
 * All operations but {@link #close()} are data path: they return a value or 0, or a negated errno, never throw and
 * never allocate. Safe from any thread; in the shm provider the values live in the domain region, so operations
 * raised by peers (remote writes into a bound memory region) count here too. Closing fails with
 * {@link Errno#FI_EBUSY} while a memory region or endpoint is bound to it.
 */
public interface Counter extends Fid
{
    /**
     * @return {@code fi_cntr_read}: the success count, a uint64 (compare with {@link Long#compareUnsigned}); once
     *         closed, the count at close.
     */
    long read();

    /** @return {@code fi_cntr_readerr}: the error count, a uint64; once closed, the count at close. */
    long readErr();

    /**
     * @param value added to the success count.
     * @return 0, or {@code -FI_EBADF} once closed.
     */
    int add(long value);

    /**
     * @param value added to the error count.
     * @return 0, or {@code -FI_EBADF} once closed.
     */
    int addErr(long value);

    /**
     * @param value the new success count.
     * @return 0, or {@code -FI_EBADF} once closed.
     */
    int set(long value);

    /**
     * @param value the new error count.
     * @return 0, or {@code -FI_EBADF} once closed.
     */
    int setErr(long value);

    /**
     * {@code fi_cntr_wait}: wait until the success count reaches {@code threshold}, both compared as uint64.
     *
     * @param threshold the count to reach, unsigned.
     * @param timeoutMs milliseconds to wait, negative for ever.
     * @return 0 when reached; {@code -FI_ETIMEDOUT}; {@code -FI_EAVAIL} when the error count changed while waiting;
     * {@code -FI_EINVAL} for a counter opened with FI_WAIT_NONE; {@code -FI_EBADF} once closed.
     */
    int await(long threshold, int timeoutMs);

    /** @return a copy of the attributes in force. */
    CntrAttr attr();
}
