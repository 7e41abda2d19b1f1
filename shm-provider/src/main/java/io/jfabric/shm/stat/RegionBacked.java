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
package io.jfabric.shm.stat;

import java.nio.file.Path;

/**
 * What an open shm domain tells about the region file behind it: where the file is (so that {@link DomainStat#read}
 * can sample it) and whether opening this domain created it (so that a program that made a domain for itself alone,
 * a benchmark for one, can remove the file when done). Every domain the shm provider opens implements it; a caller
 * holding an {@link io.jfabric.Domain} tests for it with {@code instanceof}.
 * <p>
 * Both values are fixed when the domain opens; any thread.
 */
public interface RegionBacked
{
    /**
     * @return the region file, {@code <root>/<name>.domain}.
     */
    Path regionFile();

    /**
     * @return true when opening this domain created the region file, false when it joined one that existed.
     */
    boolean createdRegion();
}
