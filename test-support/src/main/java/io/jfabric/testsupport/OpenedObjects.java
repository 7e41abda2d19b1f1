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
package io.jfabric.testsupport;

import java.util.ArrayList;
import java.util.List;

/**
 * What a test opened (fabrics, domains, queues, endpoints, registrations), closed in the reverse order by
 * {@link #close()}, so a test's set-up keeps each object as it opens it and its tear-down is one call. Closing stops
 * at the first failure, which it throws: a test that leaves something open should fail, not hide it.
 * <p>
 * The test's thread only.
 */
public final class OpenedObjects implements AutoCloseable
{
    private final List<AutoCloseable> opened = new ArrayList<>();

    /**
     * @param object an object just opened.
     * @param <T>    its type.
     * @return the object, to be closed by {@link #close()} after those opened later.
     */
    public <T extends AutoCloseable> T keep(final T object)
    {
        opened.add(object);
        return object;
    }

    /** Close what was kept, the last opened first, and forget it. */
    @Override
    public void close() throws Exception
    {
        for (int i = opened.size() - 1; i >= 0; i--)
        {
            opened.remove(i).close();
        }
    }
}
