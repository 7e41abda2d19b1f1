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
package io.jfabric.ofi.av;

import io.jfabric.Errno;
import io.jfabric.FabricException;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The printable forms libfabric gives socket addresses ({@code fi_sockaddr_in://127.0.0.1:4000},
 * {@code fi_sockaddr_in6://[::1]:4000}, what {@code fi_av_straddr} and {@code fi_tostr} print) parsed back into the
 * {@code struct sockaddr_in}/{@code sockaddr_in6} bytes that {@code fi_av_insert} takes, so an application can
 * exchange addresses as text with the String forms of the AV. Numeric addresses only: no name is looked up.
 * Stateless; any thread.
 */
public final class SockAddrText
{
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    private static final Pattern IN4 = Pattern.compile("fi_sockaddr_in://(\\d{1,3}(?:\\.\\d{1,3}){3}):(\\d{1,5})");
    private static final Pattern IN6 = Pattern.compile("fi_sockaddr_in6://\\[([0-9a-fA-F:.%]+)\\]:(\\d{1,5})");

    private SockAddrText()
    {
    }

    /**
     * @param text an address as libfabric prints it.
     * @return the sockaddr bytes (16 for IPv4, 28 for IPv6).
     * @throws FabricException FI_EINVAL for any other text.
     */
    public static byte[] parse(final String text)
    {
        if (text == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "address text is null");
        }
        final String trimmed = text.trim();
        Matcher m = IN4.matcher(trimmed);
        if (m.matches())
        {
            final InetAddress ip = numeric(m.group(1), text);
            if (!(ip instanceof Inet4Address))
            {
                throw bad(text);
            }
            return ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putShort((short)AF_INET)
                .order(ByteOrder.BIG_ENDIAN).putShort((short)port(m.group(2), text)).put(ip.getAddress()).array();
        }
        m = IN6.matcher(trimmed);
        if (m.matches())
        {
            final InetAddress ip = numeric(m.group(1), text);
            final byte[] bytes = ip instanceof Inet6Address ? ip.getAddress() : mapped(ip.getAddress());
            final int scope = ip instanceof Inet6Address six ? six.getScopeId() : 0;
            return ByteBuffer.allocate(28).order(ByteOrder.LITTLE_ENDIAN).putShort((short)AF_INET6)
                .order(ByteOrder.BIG_ENDIAN).putShort((short)port(m.group(2), text)).putInt(0).put(bytes)
                .order(ByteOrder.LITTLE_ENDIAN).putInt(scope).array();
        }
        throw bad(text);
    }

    private static byte[] mapped(final byte[] four)
    {
        final byte[] six = new byte[16];
        six[10] = (byte)0xff;
        six[11] = (byte)0xff;
        System.arraycopy(four, 0, six, 12, 4);
        return six;
    }

    private static InetAddress numeric(final String literal, final String text)
    {
        try
        {
            return InetAddress.getByName(literal);
        }
        catch (final UnknownHostException ex)
        {
            throw bad(text);
        }
    }

    private static int port(final String digits, final String text)
    {
        final int port = Integer.parseInt(digits);
        if (port > 65535)
        {
            throw bad(text);
        }
        return port;
    }

    private static FabricException bad(final String text)
    {
        return new FabricException(Errno.FI_EINVAL, "'" + text + "' is not a socket address as libfabric prints " +
            "it (fi_sockaddr_in://a.b.c.d:port or fi_sockaddr_in6://[addr]:port); insert binary addresses " +
            "(getname's bytes) with insert(byte[][], ...)");
    }
}
