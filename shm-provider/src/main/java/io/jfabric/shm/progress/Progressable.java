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
package io.jfabric.shm.progress;

/**
 * Something the provider progresses: an endpoint drains its receive lanes, matches and completes messages, and
 * pushes the pieces of large sends. Called by completion queue and counter reads (manual progress) or by a
 * {@link ProgressAgent} (automatic progress).
 */
public interface Progressable
{
    /**
     * Do the work that is ready, without blocking; returns at once if another thread is progressing this object.
     *
     * @return units of work done, 0 when there was none.
     */
    int progress();
}
