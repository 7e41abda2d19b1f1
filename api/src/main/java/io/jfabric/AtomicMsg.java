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
 * {@code struct fi_msg_atomic} (fi_atomic(3)): the local operands ({@link #msgIov}), the destination
 * ({@link #addr}), the target regions ({@link #rmaIov}), the datatype and operation, the context, and the remote CQ
 * data. The local operands and the target regions must hold the same number of elements; the elements are applied
 * in order, the operands' sequence laid over the regions' sequence.
 * <p>
 * A plain mutable holder allocated once and refilled for every call; the provider reads it during the call only.
 */
public final class AtomicMsg
{
    /** Local operands (may have count 0 for FI_ATOMIC_READ, whose element count is then the regions'). */
    public final Ioc msgIov;
    /** Target regions. */
    public final RmaIoc rmaIov;
    /** Destination fi_addr. */
    public long addr = Addresses.FI_ADDR_UNSPEC;
    /** Datatype of every element. */
    public AtomicDatatype datatype;
    /** Operation. */
    public AtomicOp op;
    /** Returned in the completion. */
    public long context;
    /** Remote CQ data (FI_REMOTE_CQ_DATA); shm refuses it for atomics with FI_EBADFLAGS. */
    public long data;

    /**
     * @param maxIov    largest number of local entries.
     * @param maxRmaIov largest number of target regions.
     */
    public AtomicMsg(final int maxIov, final int maxRmaIov)
    {
        msgIov = new Ioc(maxIov);
        rmaIov = new RmaIoc(maxRmaIov);
    }
}
