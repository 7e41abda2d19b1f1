package io.jfabric.tools.inspect;

import io.jfabric.FabricException;
import io.jfabric.shm.stat.InspectedFile;
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
