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
 * The class of a fabric object ({@code FI_CLASS_*} of rdma/fabric.h), as {@link Fid#fidClass()} reports it.
 */
public enum FidClass
{
    /** FI_CLASS_UNSPEC. */
    UNSPEC(0),
    /** FI_CLASS_FABRIC. */
    FABRIC(1),
    /** FI_CLASS_DOMAIN. */
    DOMAIN(2),
    /** FI_CLASS_EP. */
    EP(3),
    /** FI_CLASS_SEP. */
    SEP(4),
    /** FI_CLASS_RX_CTX. */
    RX_CTX(5),
    /** FI_CLASS_SRX_CTX. */
    SRX_CTX(6),
    /** FI_CLASS_TX_CTX. */
    TX_CTX(7),
    /** FI_CLASS_STX_CTX. */
    STX_CTX(8),
    /** FI_CLASS_PEP. */
    PEP(9),
    /** FI_CLASS_INTERFACE. */
    INTERFACE(10),
    /** FI_CLASS_AV. */
    AV(11),
    /** FI_CLASS_MR. */
    MR(12),
    /** FI_CLASS_EQ. */
    EQ(13),
    /** FI_CLASS_CQ. */
    CQ(14),
    /** FI_CLASS_CNTR. */
    CNTR(15),
    /** FI_CLASS_WAIT. */
    WAIT(16),
    /** FI_CLASS_POLL. */
    POLL(17),
    /** FI_CLASS_CONNREQ. */
    CONNREQ(18);

    private final int value;

    FidClass(final int value)
    {
        this.value = value;
    }

    /**
     * @return libfabric's numeric value.
     */
    public int value()
    {
        return value;
    }
}
