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
package io.jfabric.shm.region;

import io.jfabric.shm.core.ProcessIdentity;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.Map;

/**
 * Watches a domain region's file for what another process can do to it behind the domain's back, and which no
 * check on the data path could see in time:
 * <ul>
 *   <li><b>Truncated</b> (by another process of the user, or root): every page of the mapping past the new end
 *   faults (SIGBUS), which the JVM raises as an {@link InternalError}. The watch gives the file its length back at
 *   once (the lost pages come back as zeros, so later accesses no longer fault) and marks the region unusable
 *   ({@link RegionFile#fail}): what was in those pages is gone, so the domain's endpoints answer {@code -FI_EIO}
 *   from then on and the domain's event queue gets one error event.</li>
 *   <li><b>Removed or replaced</b>: the processes that mapped the file keep talking to each other, but a process
 *   that opens the domain now creates or finds another file, a second domain under the same name that cannot
 *   reach the first. Nothing is lost, so the region stays usable; the domain's event queue gets one error event
 *   ({@code FI_ENOENT}), and {@code jfabric stat} lists processes that still map a removed region file.</li>
 * </ul>
 * A truncation is seen within one heartbeat tick; an access in that window still faults, and becomes
 * {@code -FI_EIO} where the data path catches it (see docs/RELIABILITY.md for Java 17, which raises the fault
 * asynchronously, outside any catch).
 * <p>
 * Called by the heartbeat thread only; {@link #check()} never throws.
 */
public final class RegionWatch
{
    /** What a {@link #check()} found that is new. */
    public enum Finding
    {
        /** Nothing new. */
        NONE,
        /** The file was shorter than the region: the region is now unusable. */
        TRUNCATED,
        /** The path no longer names the mapped file. Reported once. */
        UNLINKED
    }

    private final RegionFile region;
    private final long length;
    private boolean truncationReported;
    private boolean unlinkReported;
    private String message;

    /**
     * @param region the open region to watch.
     */
    public RegionWatch(final RegionFile region)
    {
        this.region = region;
        this.length = RegionDescriptor.regionLength(region.geometry());
    }

    /**
     * Look at the file once: one {@code lstat(2)}.
     *
     * @return what is new since the last call; {@link #message()} then says what, for an event.
     */
    public Finding check()
    {
        final Map<String, Object> attributes;
        try
        {
            attributes = RegionDirectory.readAttributes(region.path());
        }
        catch (final IOException | RuntimeException ex)
        {
            return Finding.NONE; // cannot look now; the next tick will
        }
        final boolean linked = region.isMapped(attributes);
        if (linked && !truncationReported && (Long)attributes.get("size") < length)
        {
            return truncated((Long)attributes.get("size"));
        }
        if (!truncationReported)
        {
            // Only now touch the mapping: another process may have found the truncation and given the length back,
            // or a data-path call of this one may have faulted on it.
            final RegionHeader header = region.header();
            final long faultedBy = header.faultedBy();
            final String fault = region.fault();
            if (fault != null || faultedBy != 0 || header.magic() != RegionDescriptor.MAGIC)
            {
                truncationReported = true;
                message = fault != null ? fault + ". The domain is unusable: close its objects and the domain" :
                    "domain region " + region.path() + " was truncated by another process" +
                    (faultedBy != 0 ? " (as " + ProcessIdentity.describe(faultedBy) + " found)" :
                    " (its header is gone)") + ": what it held is lost, so the domain is unusable. " +
                    "Close the domain's objects and the domain, then open it again";
                region.fail(message);
                return Finding.TRUNCATED;
            }
        }
        if (!linked && !unlinkReported)
        {
            unlinkReported = true;
            message = "domain region " + region.path() + " was " + (null == attributes ? "removed" : "replaced by " +
                "another file") + " while this process uses it: processes that open the domain now reach another " +
                "region, which cannot reach this one; close the domain and open it again to join them";
            return Finding.UNLINKED;
        }
        return Finding.NONE;
    }

    private Finding truncated(final long size)
    {
        truncationReported = true;
        final String restored = restoreLength();
        message = "domain region " + region.path() + " was truncated from " + length + " to " + size +
            " bytes by another process: what it held is lost, so the domain is unusable; " + restored +
            " Close the domain's objects and the domain, then open it again";
        region.fail(message);
        try
        {
            region.header().markFaulted(ProcessIdentity.self()); // tells the other processes, and refuses new opens
        }
        catch (final InternalError ex)
        {
            // The length could not be given back: the header page faults. The other processes' watches see the size.
        }
        return Finding.TRUNCATED;
    }

    /** @return what the last finding was about: a text for an event or an exception. */
    public String message()
    {
        return message;
    }

    /** Extend the file (never shorten, never write a byte of it) so the mapping's pages are backed again. */
    private String restoreLength()
    {
        try (RandomAccessFile file = new RandomAccessFile(region.path().toFile(), "rw"))
        {
            if (file.length() < length)
            {
                file.setLength(length);
            }
            return "its length was given back so accesses no longer fault.";
        }
        catch (final IOException | RuntimeException ex)
        {
            return "its length could not be given back (" + ex + "), so accesses to it fault.";
        }
    }
}
