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
package io.jfabric.tools.inspect;

import io.jfabric.FabricException;
import io.jfabric.shm.region.InspectedFile;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.PrintWriter;

/**
 * How {@code jfabric dump} decodes one kind of jfabric file through its descriptor: which header fields it lists,
 * how the header is checked, and the tables that follow a valid header. {@link DumpCommand} runs the steps in that
 * order, so a damaged header is listed before what is wrong with it is said.
 */
interface FileDump
{
    /** @return bytes of the header, read with {@code read(2)} before anything is mapped. */
    int headerLength();

    /**
     * List the header's fields as stored.
     *
     * @param fields the listing.
     */
    void fields(FieldListing fields);

    /**
     * Check the header (and the file's name and length against it) as the provider's readers do.
     *
     * @param file   the file.
     * @param header its header copy.
     * @throws FabricException naming the field, its value and what was expected.
     */
    void verify(InspectedFile file, UnsafeBuffer header);

    /**
     * Print what follows a valid header: the file's tables.
     *
     * @param file   the file.
     * @param header its checked header copy.
     * @param out    where the text goes.
     */
    void body(InspectedFile file, UnsafeBuffer header, PrintWriter out);
}
