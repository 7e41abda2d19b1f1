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
package io.jfabric.ofi.lib;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every struct layout of {@link InfoLayouts}, {@link FidLayouts} and {@link DataLayouts} (found by reflection, so a
 * new one is checked without being listed) against the C compiler: a C program generated from the layouts' own
 * names prints {@code sizeof} of each struct and {@code offsetof} and {@code sizeof} of each named member, compiled
 * with gcc against the installed headers (libfabric-dev), and its output must equal the Java layouts' line for line.
 */
class LayoutOffsetsTest
{
    private static final String[] HEADERS = {
        "stddef.h", "stdio.h", "sys/uio.h", "rdma/fabric.h", "rdma/fi_domain.h", "rdma/fi_endpoint.h",
        "rdma/fi_eq.h", "rdma/fi_cm.h", "rdma/fi_rma.h", "rdma/fi_tagged.h", "rdma/fi_atomic.h"};

    @Test
    void shouldAgreeWithOffsetofForEveryStructAndMember(@TempDir final Path dir) throws Exception
    {
        assumeTrue(Files.exists(Path.of("/usr/include/rdma/fabric.h")), "libfabric-dev headers are not installed");
        final List<StructLayout> layouts = layouts();
        assertTrue(layouts.size() >= 40, "layouts found: " + layouts.size());

        final StringBuilder c = new StringBuilder();
        final StringBuilder java = new StringBuilder();
        for (final String header : HEADERS)
        {
            c.append("#include <").append(header).append(">\n");
        }
        c.append("int main(void)\n{\n");
        int members = 0;
        for (final StructLayout layout : layouts)
        {
            final String struct = "struct " + layout.name().orElseThrow();
            c.append("    printf(\"%s size %zu\\n\", \"").append(struct).append("\", sizeof(").append(struct)
                .append("));\n");
            java.append(struct).append(" size ").append(layout.byteSize()).append('\n');
            for (final MemoryLayout member : layout.memberLayouts())
            {
                if (member instanceof PaddingLayout)
                {
                    continue;
                }
                final String name = member.name().orElseThrow();
                c.append("    printf(\"%s.%s offset %zu size %zu\\n\", \"").append(struct).append("\", \"")
                    .append(name).append("\", offsetof(").append(struct).append(", ").append(name)
                    .append("), sizeof(((").append(struct).append(" *)0)->").append(name).append("));\n");
                java.append(struct).append('.').append(name).append(" offset ")
                    .append(layout.byteOffset(MemoryLayout.PathElement.groupElement(name))).append(" size ")
                    .append(member.byteSize()).append('\n');
                members++;
            }
        }
        c.append("    return 0;\n}\n");
        assertTrue(members >= 250, "members: " + members);

        final Path source = dir.resolve("layouts.c");
        final Path binary = dir.resolve("layouts");
        Files.writeString(source, c);
        assertEquals("", run(dir, "gcc", "-Wall", "-o", binary.toString(), source.toString()).trim() + "",
            "gcc printed nothing");
        assertEquals(java.toString(), run(dir, binary.toString()));
    }

    private static List<StructLayout> layouts() throws IllegalAccessException
    {
        final List<StructLayout> layouts = new ArrayList<>();
        for (final Class<?> holder : new Class<?>[] {InfoLayouts.class, FidLayouts.class, DataLayouts.class})
        {
            for (final Field field : holder.getDeclaredFields())
            {
                if (Modifier.isStatic(field.getModifiers()) && field.getType() == StructLayout.class)
                {
                    layouts.add((StructLayout)field.get(null));
                }
            }
        }
        return layouts;
    }

    private static String run(final Path dir, final String... command) throws Exception
    {
        final Path out = dir.resolve("out.txt");
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
            .start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "timed out: " + command[0]);
        final String output = Files.readString(out);
        assertEquals(0, process.exitValue(), () -> command[0] + ": " + output);
        return output;
    }
}
