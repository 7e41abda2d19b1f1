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
package io.jfabric.tools.pingpong;

import io.jfabric.testsupport.PrivateRoot;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A root directory of a test class's own for the shm provider ({@code jfabric.shm.dir}, which a server JVM started
 * with {@code --self} inherits), with a small region (4 endpoint slots unless asked for more). The shm provider reads
 * its settings once per JVM, on first use, so a class sets its root once, before any use, and the tools' tests run
 * each class in a JVM of its own (surefire {@code reuseForks=false}). A class registers it as an extension in a
 * static field ({@code @RegisterExtension static final OwnShmRoot ROOT = OwnShmRoot.use(...)}), which sets the root
 * when the class is initialized, before any test; it then empties the root after each test and removes it, and the
 * settings, after the class. The test thread only.
 */
final class OwnShmRoot implements AfterEachCallback, AfterAllCallback
{
    private static final String ROOT_PROPERTY = "jfabric.shm.dir";
    private static final String EP_COUNT_PROPERTY = "jfabric.shm.ep.count";

    private final PrivateRoot root;

    private OwnShmRoot(final PrivateRoot root)
    {
        this.root = root;
    }

    /**
     * @param prefix the directory's name before a random part.
     * @return the root, set for this JVM's shm provider.
     */
    static OwnShmRoot use(final String prefix)
    {
        return use(prefix, 4);
    }

    /**
     * @param prefix  the directory's name before a random part.
     * @param epCount the region's endpoint slots (the domain's ep_cnt).
     * @return the root, set for this JVM's shm provider.
     */
    static OwnShmRoot use(final String prefix, final int epCount)
    {
        final PrivateRoot root = new PrivateRoot(prefix);
        System.setProperty(ROOT_PROPERTY, root.dir().toString());
        System.setProperty(EP_COUNT_PROPERTY, Integer.toString(epCount));
        return new OwnShmRoot(root);
    }

    /** @return the directory. */
    Path path()
    {
        return root.dir();
    }

    /** @throws IOException when listing fails; fails the test when a run left a file in the root. */
    void assertEmpty() throws IOException
    {
        if (Files.exists(root.dir()))
        {
            try (Stream<Path> files = Files.list(root.dir()))
            {
                final List<Path> left = files.toList();
                assertTrue(left.isEmpty(), "left in the root: " + left);
            }
        }
    }

    /** After each test: remove whatever it left, so the next starts clean. */
    @Override
    public void afterEach(final ExtensionContext context)
    {
        root.empty();
    }

    /** After the class: remove the root and the settings. */
    @Override
    public void afterAll(final ExtensionContext context)
    {
        System.clearProperty(ROOT_PROPERTY);
        System.clearProperty(EP_COUNT_PROPERTY);
        root.close();
    }
}
