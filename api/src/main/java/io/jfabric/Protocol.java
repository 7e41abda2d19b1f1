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
 * Endpoint protocols of fi_endpoint(3) ({@code ep_attr.protocol}); the shm provider reports {@link #SHM}.
 */
public enum Protocol
{
    /** FI_PROTO_UNSPEC. */
    UNSPEC(0),
    /** FI_PROTO_RDMA_CM_IB_RC. */
    RDMA_CM_IB_RC(1),
    /** FI_PROTO_IWARP. */
    IWARP(2),
    /** FI_PROTO_IB_UD. */
    IB_UD(3),
    /** FI_PROTO_PSMX. */
    PSMX(4),
    /** FI_PROTO_UDP. */
    UDP(5),
    /** FI_PROTO_SOCK_TCP. */
    SOCK_TCP(6),
    /** FI_PROTO_MXM. */
    MXM(7),
    /** FI_PROTO_IWARP_RDM. */
    IWARP_RDM(8),
    /** FI_PROTO_IB_RDM. */
    IB_RDM(9),
    /** FI_PROTO_GNI. */
    GNI(10),
    /** FI_PROTO_RXM. */
    RXM(11),
    /** FI_PROTO_RXD. */
    RXD(12),
    /** FI_PROTO_MLX. */
    MLX(13),
    /** FI_PROTO_NETWORKDIRECT. */
    NETWORKDIRECT(14),
    /** FI_PROTO_PSMX2. */
    PSMX2(15),
    /** FI_PROTO_SHM. */
    SHM(16),
    /** FI_PROTO_MRAIL. */
    MRAIL(17),
    /** FI_PROTO_RSTREAM. */
    RSTREAM(18),
    /** FI_PROTO_RDMA_CM_IB_XRC. */
    RDMA_CM_IB_XRC(19),
    /** FI_PROTO_EFA. */
    EFA(20),
    /** FI_PROTO_PSMX3. */
    PSMX3(21),
    /** FI_PROTO_RXM_TCP. */
    RXM_TCP(22),
    /** FI_PROTO_OPX. */
    OPX(23),
    /** FI_PROTO_CXI. */
    CXI(24),
    /** FI_PROTO_XNET. */
    XNET(25);

    private static final Protocol[] VALUES = values();

    private final int value;

    Protocol(final int value)
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

    /**
     * @return libfabric's symbolic name, such as {@code "FI_PROTO_UNSPEC"}.
     */
    public String cName()
    {
        return "FI_PROTO_" + name();
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value.
     */
    public static Protocol of(final int value)
    {
        for (final Protocol v : VALUES)
        {
            if (v.value == value)
            {
                return v;
            }
        }
        return null;
    }
}
