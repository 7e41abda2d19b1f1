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
 * Address formats of fi_getinfo(3) ({@code info.addr_format}); shm endpoints use {@link #ADDR_STR}.
 * <p>
 * {@link #cName()} of {@code UNSPEC} is {@code FI_FORMAT_UNSPEC}, as in C.
 */
public enum AddrFormat
{
    /** FI_UNSPEC. */
    UNSPEC(0),
    /** FI_SOCKADDR. */
    SOCKADDR(1),
    /** FI_SOCKADDR_IN. */
    SOCKADDR_IN(2),
    /** FI_SOCKADDR_IN6. */
    SOCKADDR_IN6(3),
    /** FI_SOCKADDR_IB. */
    SOCKADDR_IB(4),
    /** FI_ADDR_PSMX. */
    ADDR_PSMX(5),
    /** FI_ADDR_GNI. */
    ADDR_GNI(6),
    /** FI_ADDR_BGQ. */
    ADDR_BGQ(7),
    /** FI_ADDR_MLX. */
    ADDR_MLX(8),
    /** FI_ADDR_STR. */
    ADDR_STR(9),
    /** FI_ADDR_PSMX2. */
    ADDR_PSMX2(10),
    /** FI_ADDR_IB_UD. */
    ADDR_IB_UD(11),
    /** FI_ADDR_EFA. */
    ADDR_EFA(12),
    /** FI_ADDR_PSMX3. */
    ADDR_PSMX3(13),
    /** FI_ADDR_OPX. */
    ADDR_OPX(14),
    /** FI_ADDR_CXI. */
    ADDR_CXI(15);

    private static final AddrFormat[] VALUES = values();

    private final int value;

    AddrFormat(final int value)
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
     * @return libfabric's symbolic name, such as {@code "FI_UNSPEC"}.
     */
    public String cName()
    {
        return this == UNSPEC ? "FI_FORMAT_UNSPEC" : "FI_" + name();
    }

    /**
     * @param value libfabric's numeric value.
     * @return the constant, or null when libfabric defines none with that value.
     */
    public static AddrFormat of(final int value)
    {
        for (final AddrFormat v : VALUES)
        {
            if (v.value == value)
            {
                return v;
            }
        }
        return null;
    }
}
