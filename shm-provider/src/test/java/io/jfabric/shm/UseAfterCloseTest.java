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
package io.jfabric.shm;

import io.jfabric.testsupport.ChildJvm;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 14, item 6: no sequence of public calls crashes the JVM or writes outside what it was given. A second JVM
 * ({@link UseAfterClosePeerMain}) writes through a shareable memory's view after closing the memory, and through a
 * zero-copy claim's buffer past the claim, after its commit, and after the domain closed; before the fix the first
 * and the last killed it with SIGSEGV, and a write past the claim landed in the lane's next record.
 */
class UseAfterCloseTest
{
    @Test
    void shouldNeverCrashTheJvmOnWritesThroughViewsAfterCloseAndBoundAClaimToItself() throws Exception
    {
        try (ShmTestRoot root = new ShmTestRoot())
        {
            final ChildJvm child = ChildJvm.start(UseAfterClosePeerMain.class, List.of("jfabric.shm.dir=" + root.dir()),
                "misuse");
            final Map<String, String> shareable = child.awaitResult(60);
            assertEquals("3", shareable.get("shareable"), "the closed memory's view still reads back what it wrote");
            final Map<String, String> claim = child.awaitResult(60);
            assertEquals("refused", claim.get("past"), "a write past the claim throws");
            assertEquals("refused", claim.get("aftercommit"), "a write after the commit throws");
            assertEquals("6", claim.get("afterclose"), "after the domain closed the memory is still mapped");
            child.awaitSuccess(30);
        }
    }
}
