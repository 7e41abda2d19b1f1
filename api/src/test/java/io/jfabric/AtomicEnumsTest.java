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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class AtomicEnumsTest
{
    private static final Path FI_DOMAIN_H = Path.of("/usr/include/rdma/fi_domain.h");

    @Test
    void shouldNameEveryDatatypeAsFiTostrDoes()
    {
        for (final AtomicDatatype type : AtomicDatatype.values())
        {
            assertEquals(ToStr.toStr(type.value(), FiType.ATOMIC_TYPE), type.cName());
            assertSame(type, AtomicDatatype.of(type.value()));
        }
        assertEquals(16, AtomicDatatype.values().length);
    }

    @Test
    void shouldNameEveryOpAsFiTostrDoes()
    {
        for (final AtomicOp op : AtomicOp.values())
        {
            assertEquals(ToStr.toStr(op.value(), FiType.ATOMIC_OP), op.cName());
            assertSame(op, AtomicOp.of(op.value()));
        }
        assertEquals(19, AtomicOp.values().length);
    }

    @Test
    void shouldReturnNullForNumbersLibfabricDoesNotDefine()
    {
        assertNull(AtomicDatatype.of(-1));
        assertNull(AtomicDatatype.of(16));
        assertNull(AtomicDatatype.of(256), "FI_VOID is a collective datatype, not an atomic one");
        assertNull(AtomicOp.of(-1));
        assertNull(AtomicOp.of(19));
        assertNull(AtomicOp.of(256), "FI_NOOP is a collective op");
    }

    @Test
    void shouldGiveTheSizesOfTheCTypes()
    {
        final int[] sizes = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 8, 16, 16, 32, 16, 16};
        for (final AtomicDatatype type : AtomicDatatype.values())
        {
            assertEquals(sizes[type.value()], type.size(), type.cName());
        }
    }

    @Test
    void shouldClassifyDatatypes()
    {
        assertTrue(AtomicDatatype.INT8.isInteger());
        assertTrue(AtomicDatatype.UINT128.isInteger());
        assertFalse(AtomicDatatype.FLOAT.isInteger());
        assertFalse(AtomicDatatype.LONG_DOUBLE_COMPLEX.isInteger());
        assertTrue(AtomicDatatype.UINT64.isUnsigned());
        assertFalse(AtomicDatatype.INT64.isUnsigned());
        assertFalse(AtomicDatatype.DOUBLE.isUnsigned());
        assertTrue(AtomicDatatype.FLOAT_COMPLEX.isComplex());
        assertFalse(AtomicDatatype.DOUBLE.isComplex());
        assertTrue(AtomicOp.CSWAP.isCompare());
        assertTrue(AtomicOp.MSWAP.isCompare());
        assertFalse(AtomicOp.ATOMIC_WRITE.isCompare());
    }

    @Test
    void shouldMatchTheInstalledHeader() throws IOException
    {
        assumeTrue(Files.isReadable(FI_DOMAIN_H), "libfabric-dev not installed");
        final String header = Files.readString(FI_DOMAIN_H);
        final Map<String, Integer> datatypes = enumValues(header, "fi_datatype");
        final Map<String, Integer> ops = enumValues(header, "fi_op");
        for (final AtomicDatatype type : AtomicDatatype.values())
        {
            assertEquals(datatypes.get(type.cName()), type.value(), type.cName());
        }
        for (final AtomicOp op : AtomicOp.values())
        {
            assertEquals(ops.get(op.cName()), op.value(), op.cName());
        }
    }

    /**
     * The members of a C enum as the compiler numbers them: explicit values (numbers or earlier members) and
     * implicit successors.
     */
    private static Map<String, Integer> enumValues(final String header, final String name)
    {
        final Matcher body = Pattern.compile("enum\\s+" + name + "\\s*\\{(.*?)\\};", Pattern.DOTALL).matcher(header);
        assertTrue(body.find(), "enum " + name + " in " + FI_DOMAIN_H);
        final Map<String, Integer> values = new LinkedHashMap<>();
        final String text = body.group(1).replaceAll("(?s)/\\*.*?\\*/", "");
        int next = 0;
        for (final String item : text.split(","))
        {
            final String member = item.trim();
            if (member.isEmpty())
            {
                continue;
            }
            final int eq = member.indexOf('=');
            final String key = (eq < 0 ? member : member.substring(0, eq)).trim();
            if (eq >= 0)
            {
                final String expression = member.substring(eq + 1).trim();
                next = values.containsKey(expression) ? values.get(expression) :
                    expression.matches("\\d+") ? Integer.parseInt(expression) : -1000;
            }
            values.put(key, next++);
        }
        return values;
    }
}
