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
package io.jfabric.examples;

import io.jfabric.testsupport.PrivateRoot;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's Java as a newcomer copies it: every {@code ```java} block compiles against the api (a block that is
 * not a whole class, such as the RMA snippet's two methods, inside a class that imports {@code io.jfabric.*} and
 * {@code java.nio.ByteBuffer}), and the quick start, run in a JVM of its own, prints what the README says it does.
 */
class ReadmeSnippetsTest
{
    private static final Path README = Path.of("..", "README.md");

    @Test
    void shouldCompileEveryJavaBlockOfTheReadme(@TempDir final Path dir) throws IOException
    {
        final List<String> blocks = javaBlocks();
        assertEquals(2, blocks.size(), "the quick start and the RMA snippet: a new block belongs in this test too");
        final List<Path> sources = new ArrayList<>();
        for (int i = 0; i < blocks.size(); i++)
        {
            sources.add(source(dir, blocks.get(i), i));
        }
        compile(dir, sources);
    }

    @Test
    void shouldRunTheQuickStartAsTheReadmeSays(@TempDir final Path dir) throws Exception
    {
        final String quickStart = javaBlocks().stream().filter(b -> b.contains("public final class QuickStart"))
            .findFirst().orElseThrow(() -> new AssertionError("no QuickStart class in " + README));
        compile(dir, List.of(source(dir, quickStart, 0)));
        try (PrivateRoot root = new PrivateRoot("jfabric-examples-test-");
            ExampleJvm run = ExampleJvm.start("QuickStart", "QuickStart", dir, root.dir()))
        {
            final List<String> lines = run.awaitSuccess(60);
            assertTrue(lines.contains("completion: context 2, 0 bytes") || lines.contains("completion: context 2, 5 bytes"),
                run.output());
            assertTrue(lines.contains("completion: context 1, 5 bytes"), run.output());
            assertTrue(lines.get(lines.size() - 1).matches("received hello at fi_shm://[^:]+:\\d+/quickstart\\?gen=\\d+"),
                run.output());
        }
    }

    /** @return the text of each {@code ```java} block of the README, in order. */
    private static List<String> javaBlocks() throws IOException
    {
        final List<String> blocks = new ArrayList<>();
        StringBuilder block = null;
        for (final String line : Files.readAllLines(README, StandardCharsets.UTF_8))
        {
            if (null == block && line.equals("```java"))
            {
                block = new StringBuilder();
            }
            else if (null != block && line.equals("```"))
            {
                blocks.add(block.toString());
                block = null;
            }
            else if (null != block)
            {
                block.append(line).append('\n');
            }
        }
        assertTrue(null == block, "a ```java block of " + README + " is not closed");
        return blocks;
    }

    /** A whole class as its own file; anything else inside a class of its own. */
    private static Path source(final Path dir, final String block, final int index) throws IOException
    {
        final String wholeClass = "public final class QuickStart";
        if (block.contains(wholeClass))
        {
            return Files.writeString(dir.resolve("QuickStart.java"), block);
        }
        final String name = "ReadmeSnippet" + index;
        return Files.writeString(dir.resolve(name + ".java"), "import io.jfabric.*;\n\nimport java.nio.ByteBuffer;\n\n" +
            "final class " + name + "\n{\n" + block + "}\n");
    }

    private static void compile(final Path dir, final List<Path> sources) throws IOException
    {
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        final DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null))
        {
            final boolean ok = javac.getTask(null, files, diagnostics, List.of("--release", "17", "-Xlint:all",
                "-Werror", "-cp", System.getProperty("java.class.path"), "-d", dir.toString()), null,
                files.getJavaFileObjectsFromPaths(sources)).call();
            assertTrue(ok, () -> "the README's Java does not compile:\n" + String.join("\n",
                diagnostics.getDiagnostics().stream().map(Object::toString).toList()));
        }
    }
}
