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

import java.nio.charset.StandardCharsets;

import static io.jfabric.CText.*;

/**
 * How fi_tostr prints {@code src_addr}/{@code dest_addr}: by {@code addr_format}, reading the bytes as they lie
 * in memory on a little-endian host (socket families in host order, ports and InfiniBand fields in network
 * order), with IPv6 text as glibc's {@code inet_ntop} writes it.
 * <p>
 * Stateless; any thread.
 */
final class AddressText
{
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;

    private AddressText()
    {
    }

    static StringBuilder append(final StringBuilder sb, final int format, final byte[] a)
    {
        if (a == null)
        {
            return sb.append(NULL_STRING);
        }
        switch (format)
        {
            case 1: // FI_SOCKADDR
                final int family = le16(a, 0);
                if (family == AF_INET)
                {
                    return socket(sb, "fi_sockaddr_in://", "", a, AF_INET, 4);
                }
                return family == AF_INET6 ? socket(sb, "fi_sockaddr_in6://[", "]", a, AF_INET6, 8) : sb;
            case 2: // FI_SOCKADDR_IN
                return socket(sb, "fi_sockaddr_in://", "", a, le16(a, 0), 4);
            case 3: // FI_SOCKADDR_IN6
                return socket(sb, "fi_sockaddr_in6://[", "]", a, le16(a, 0), 8);
            case 4: // FI_SOCKADDR_IB
                sb.append("fi_sockaddr_ib://[");
                inet6(sb, a, 8).append("]:0x").append(Integer.toHexString(be16(a, 2)));
                sb.append(":0x").append(Integer.toHexString(be16(a, 28) & 0xFFF));
                return sb.append(":0x").append(Integer.toHexString(u8(a, 47)));
            case 5: // FI_ADDR_PSMX
                return sb.append("fi_addr_psmx://").append(Long.toHexString(le64(a, 0)));
            case 6: // FI_ADDR_GNI
                return sb.append("fi_addr_gni://").append(Long.toHexString(le64(a, 0)));
            case 7: // FI_ADDR_BGQ: C prints the pointer
                sb.append("fi_addr_bgq://");
                appendPointer(sb, a);
                return sb;
            case 8: // FI_ADDR_MLX: C prints the pointer
                sb.append("fi_addr_mlx://");
                appendPointer(sb, a);
                return sb;
            case 9: // FI_ADDR_STR: up to the first NUL, whatever the length says
                int end = 0;
                while (end < a.length && a[end] != 0)
                {
                    end++;
                }
                return sb.append(new String(a, 0, end, StandardCharsets.UTF_8));
            case 10: // FI_ADDR_PSMX2
                sb.append("fi_addr_psmx2://").append(Long.toHexString(le64(a, 0)));
                return sb.append(':').append(Long.toHexString(le64(a, 8)));
            case 11: // FI_ADDR_IB_UD
                inet6(sb.append("fi_addr_ib_ud://"), a, 0);
                sb.append(':').append(Integer.toHexString(le32(a, 16)));
                sb.append('/').append(Integer.toHexString(le16(a, 20)));
                sb.append('/').append(Integer.toHexString(le16(a, 22)));
                return sb.append('/').append(Integer.toHexString(u8(a, 26)));
            case 12: // FI_ADDR_EFA
                inet6(sb.append("fi_addr_efa://["), a, 0).append("]:").append(le16(a, 16));
                return sb.append(':').append(Integer.toUnsignedString(le32(a, 20)));
            case 13: // FI_ADDR_PSMX3
                sb.append("fi_addr_psmx3://").append(Long.toHexString(le64(a, 0)));
                sb.append(':').append(Long.toHexString(le64(a, 8)));
                sb.append(':').append(Long.toHexString(le64(a, 16)));
                return sb.append(':').append(Long.toHexString(le64(a, 24)));
            case 14: // FI_ADDR_OPX
                return appendPaddedHex(sb.append("fi_addr_opx://"), le64(a, 0), 16);
            case 15: // FI_ADDR_CXI
                return appendPaddedHex(sb.append("fi_addr_cxi://0x"), le32(a, 0) & 0xFFFF_FFFFL, 8);
            default: // FI_FORMAT_UNSPEC and unknown formats print nothing
                return sb;
        }
    }

    /**
     * The family picks the address text; the format picks the frame and where the address bytes are read.
     */
    private static StringBuilder socket(
        final StringBuilder sb,
        final String prefix,
        final String close,
        final byte[] a,
        final int family,
        final int offset)
    {
        if (family != AF_INET && family != AF_INET6)
        {
            return sb;
        }
        sb.append(prefix);
        if (family == AF_INET)
        {
            inet4(sb, a, offset);
        }
        else
        {
            inet6(sb, a, offset);
        }
        return sb.append(close).append(':').append(be16(a, 2));
    }

    static StringBuilder inet4(final StringBuilder sb, final byte[] a, final int offset)
    {
        return sb.append(u8(a, offset)).append('.').append(u8(a, offset + 1)).append('.')
            .append(u8(a, offset + 2)).append('.').append(u8(a, offset + 3));
    }

    /**
     * IPv6 text as glibc's inet_ntop writes it: the longest run of two or more zero words (the first of equal
     * runs) becomes "::", and an address whose first 96 bits are zero, or that is v4-mapped, ends in dotted
     * IPv4 unless the zero run reaches word 7.
     */
    static StringBuilder inet6(final StringBuilder sb, final byte[] a, final int offset)
    {
        final int[] words = new int[8];
        for (int i = 0; i < 8; i++)
        {
            words[i] = be16(a, offset + 2 * i);
        }
        int bestBase = -1;
        int bestLen = 0;
        int curBase = -1;
        int curLen = 0;
        for (int i = 0; i < 8; i++)
        {
            if (words[i] == 0)
            {
                if (curBase == -1)
                {
                    curBase = i;
                    curLen = 1;
                }
                else
                {
                    curLen++;
                }
            }
            else if (curBase != -1)
            {
                if (bestBase == -1 || curLen > bestLen)
                {
                    bestBase = curBase;
                    bestLen = curLen;
                }
                curBase = -1;
            }
        }
        if (curBase != -1 && (bestBase == -1 || curLen > bestLen))
        {
            bestBase = curBase;
            bestLen = curLen;
        }
        if (bestBase != -1 && bestLen < 2)
        {
            bestBase = -1;
        }
        for (int i = 0; i < 8; i++)
        {
            if (bestBase != -1 && i >= bestBase && i < bestBase + bestLen)
            {
                if (i == bestBase)
                {
                    sb.append(':');
                }
                continue;
            }
            if (i != 0)
            {
                sb.append(':');
            }
            if (i == 6 && bestBase == 0 && (bestLen == 6 || (bestLen == 5 && words[5] == 0xFFFF)))
            {
                return inet4(sb, a, offset + 12);
            }
            sb.append(Integer.toHexString(words[i]));
        }
        if (bestBase != -1 && bestBase + bestLen == 8)
        {
            sb.append(':');
        }
        return sb;
    }

    private static int u8(final byte[] a, final int i)
    {
        return i < a.length ? a[i] & 0xFF : 0;
    }

    private static int le16(final byte[] a, final int i)
    {
        return u8(a, i) | (u8(a, i + 1) << 8);
    }

    private static int be16(final byte[] a, final int i)
    {
        return (u8(a, i) << 8) | u8(a, i + 1);
    }

    private static int le32(final byte[] a, final int i)
    {
        return le16(a, i) | (le16(a, i + 2) << 16);
    }

    private static long le64(final byte[] a, final int i)
    {
        return (le32(a, i) & 0xFFFF_FFFFL) | ((long)le32(a, i + 4) << 32);
    }
}
