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

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The byte[] forms {@link AddressVector} gives every provider by default (insert, lookupBytes, straddr), as a provider
 * whose addresses are FI_ADDR_STR texts (shm) inherits them: each binary address read as US-ASCII up to its NUL and
 * handed to the String form. The AV here keeps its texts in a list; only the default methods are under test.
 */
class AddressVectorBytesTest
{
    @Test
    void shouldInsertGetnameBytesAsTextsUpToTheirNul()
    {
        final TextAv av = new TextAv();
        final long[] fiAddr = new long[2];
        final byte[][] addr = {ascii("fi_shm://h:1/d\0"), ascii("fi_shm://h:2/d")};
        final int[] status = new int[2];

        assertEquals(2, av.insert(addr, 2, fiAddr, Flags.FI_SYNC_ERR, 7, status));
        assertEquals(List.of("fi_shm://h:1/d", "fi_shm://h:2/d"), av.texts);
        assertArrayEquals(new long[] {0, 1}, fiAddr);
        assertEquals(Flags.FI_SYNC_ERR, av.lastFlags);
        assertEquals(7, av.lastContext);
    }

    @Test
    void shouldInsertOnlyTheFirstCountAddresses()
    {
        final TextAv av = new TextAv();
        assertEquals(1, av.insert(new byte[][] {ascii("a"), ascii("b")}, 1, null, 0, 0, null));
        assertEquals(List.of("a"), av.texts);
    }

    @Test
    void shouldRefuseACountBeyondTheArrayAndNullAddressesWithEinval()
    {
        final TextAv av = new TextAv();
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class,
            () -> av.insert(new byte[][] {ascii("a")}, 2, null, 0, 0, null)).errno());
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class,
            () -> av.insert((byte[][])null, 1, null, 0, 0, null)).errno());
        assertEquals(Errno.FI_EINVAL, assertThrows(FabricException.class,
            () -> av.insert(new byte[][] {null}, 1, null, 0, 0, null)).errno());
        assertEquals(List.of(), av.texts);
    }

    @Test
    void shouldLookUpTheStoredBytesWithTheirNulAndInsertThemBack()
    {
        final TextAv av = new TextAv();
        av.insert(new byte[][] {ascii("fi_shm://h:3/d")}, 1, null, 0, 0, null);

        final byte[] stored = av.lookupBytes(0);
        assertArrayEquals(ascii("fi_shm://h:3/d\0"), stored);
        av.insert(new byte[][] {stored}, 1, null, 0, 0, null);
        assertEquals(List.of("fi_shm://h:3/d", "fi_shm://h:3/d"), av.texts);
    }

    @Test
    void shouldPrintBinaryFormThroughTheStringStraddr()
    {
        assertEquals("[fi_shm://h:4/d]", new TextAv().straddr(ascii("fi_shm://h:4/d\0junk")));
    }

    private static byte[] ascii(final String s)
    {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** An AV of FI_ADDR_STR texts: index i is the i-th inserted. */
    private static final class TextAv implements AddressVector
    {
        final List<String> texts = new ArrayList<>();
        long lastFlags;
        long lastContext;

        @Override
        public int insert(final String[] addr, final int count, final long[] fiAddr, final long flags,
            final long context, final int[] status)
        {
            for (int i = 0; i < count; i++)
            {
                if (fiAddr != null)
                {
                    fiAddr[i] = texts.size();
                }
                texts.add(addr[i]);
            }
            lastFlags = flags;
            lastContext = context;
            return count;
        }

        @Override
        public int lookup(final long fiAddr, final byte[] addr)
        {
            final byte[] text = ascii(texts.get((int)fiAddr) + "\0");
            System.arraycopy(text, 0, addr, 0, Math.min(addr.length, text.length));
            return text.length;
        }

        @Override
        public String straddr(final String addr)
        {
            return "[" + addr + "]";
        }

        @Override
        public AvAttr attr()
        {
            return new AvAttr();
        }

        @Override
        public void bind(final Fid eq, final long flags)
        {
        }

        @Override
        public int insertsvc(final String node, final String service, final long[] fiAddr, final long flags,
            final long context, final int[] status)
        {
            return 0;
        }

        @Override
        public int insertsym(final String node, final int nodecnt, final String service, final int svccnt,
            final long[] fiAddr, final long flags, final long context, final int[] status)
        {
            return 0;
        }

        @Override
        public void remove(final long[] fiAddr, final int count, final long flags)
        {
        }

        @Override
        public String lookup(final long fiAddr)
        {
            return texts.get((int)fiAddr);
        }

        @Override
        public int straddr(final String addr, final byte[] buf)
        {
            return 0;
        }

        @Override
        public long insertAuthKey(final byte[] authKey, final long flags)
        {
            return 0;
        }

        @Override
        public int lookupAuthKey(final long fiAddr, final byte[] authKey)
        {
            return 0;
        }

        @Override
        public void setUserId(final long fiAddr, final long userId, final long flags)
        {
        }

        @Override
        public long userId(final long fiAddr)
        {
            return 0;
        }

        @Override
        public FidClass fidClass()
        {
            return FidClass.AV;
        }

        @Override
        public long context()
        {
            return 0;
        }

        @Override
        public void close()
        {
        }
    }
}
