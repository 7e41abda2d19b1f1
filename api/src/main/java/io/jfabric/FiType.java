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
 * What {@link ToStr#toStr(Object, FiType)} is asked to print: libfabric's {@code enum fi_type} (rdma/fabric.h,
 * libfabric 1.17), with libfabric's numbers.
 * <p>
 * libfabric 1.17 has no {@code FI_TYPE_DOMAIN_CAP}: a domain's {@code caps} print with the {@link #CAPS} names,
 * inside {@link #DOMAIN_ATTR}. Immutable; any thread.
 */
public enum FiType
{
    /** FI_TYPE_INFO: an {@link Info}, with every nested attribute. */
    INFO(0),
    /** FI_TYPE_EP_TYPE: an {@link EpType} or its number. */
    EP_TYPE(1),
    /** FI_TYPE_CAPS: capability bits ({@link Flags}) as a {@code long}. */
    CAPS(2),
    /** FI_TYPE_OP_FLAGS: operation flag bits ({@link Flags}) as a {@code long}. */
    OP_FLAGS(3),
    /** FI_TYPE_ADDR_FORMAT: an {@link AddrFormat} or its number. */
    ADDR_FORMAT(4),
    /** FI_TYPE_TX_ATTR: a {@link TxAttr}. */
    TX_ATTR(5),
    /** FI_TYPE_RX_ATTR: an {@link RxAttr}. */
    RX_ATTR(6),
    /** FI_TYPE_EP_ATTR: an {@link EpAttr}. */
    EP_ATTR(7),
    /** FI_TYPE_DOMAIN_ATTR: a {@link DomainAttr}. */
    DOMAIN_ATTR(8),
    /** FI_TYPE_FABRIC_ATTR: a {@link FabricAttr}. */
    FABRIC_ATTR(9),
    /** FI_TYPE_THREADING: a {@link Threading} or its number. */
    THREADING(10),
    /** FI_TYPE_PROGRESS: a {@link Progress} or its number. */
    PROGRESS(11),
    /** FI_TYPE_PROTOCOL: a {@link Protocol} or its number. */
    PROTOCOL(12),
    /** FI_TYPE_MSG_ORDER: ordering bits ({@link MsgOrder}) as a {@code long}. */
    MSG_ORDER(13),
    /** FI_TYPE_MODE: mode bits ({@link Mode}) as a {@code long}. */
    MODE(14),
    /** FI_TYPE_AV_TYPE: an {@link AvType} or its number. */
    AV_TYPE(15),
    /** FI_TYPE_ATOMIC_TYPE: the number of an {@code enum fi_datatype} value. */
    ATOMIC_TYPE(16),
    /** FI_TYPE_ATOMIC_OP: the number of an {@code enum fi_op} value. */
    ATOMIC_OP(17),
    /** FI_TYPE_VERSION: the libfabric version this library follows; the data only has to be non-null. */
    VERSION(18),
    /** FI_TYPE_EQ_EVENT: an {@link EqEvent} or its number. */
    EQ_EVENT(19),
    /** FI_TYPE_CQ_EVENT_FLAGS: completion flag bits as a {@code long}. */
    CQ_EVENT_FLAGS(20),
    /** FI_TYPE_MR_MODE: memory registration mode bits ({@link MrMode}) as an {@code int}. */
    MR_MODE(21),
    /** FI_TYPE_OP_TYPE: the number of an {@code enum fi_op_type} value (triggered operations). */
    OP_TYPE(22),
    /** FI_TYPE_FID: a {@link Fid}. */
    FID(23),
    /** FI_TYPE_COLLECTIVE_OP: the number of an {@code enum fi_collective_op} value. */
    COLLECTIVE_OP(24),
    /** FI_TYPE_HMEM_IFACE: the number of an {@code enum fi_hmem_iface} value. */
    HMEM_IFACE(25),
    /** FI_TYPE_CQ_FORMAT: a {@link CqFormat} or its number. */
    CQ_FORMAT(26),
    /** FI_TYPE_LOG_LEVEL: the number of an {@code enum fi_log_level} value. */
    LOG_LEVEL(27),
    /** FI_TYPE_LOG_SUBSYS: the number of an {@code enum fi_log_subsys} value. */
    LOG_SUBSYS(28);

    private static final FiType[] VALUES = values();

    private final int value;

    FiType(final int value)
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
     * @return libfabric's symbolic name, such as {@code "FI_TYPE_INFO"}.
     */
    public String cName()
    {
        return "FI_TYPE_" + name();
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value.
     */
    public static FiType of(final int value)
    {
        return value >= 0 && value < VALUES.length ? VALUES[value] : null;
    }
}
