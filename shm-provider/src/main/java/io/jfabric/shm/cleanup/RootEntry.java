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
package io.jfabric.shm.cleanup;

import io.jfabric.shm.core.ProcessIdentity;

import java.nio.file.Path;

/**
 * One file of the shm root as cleanup sees it: what kind of file it is, and whether a live process still uses it
 * ({@link State#IN_USE}), every process that used it is gone ({@link State#LEFT_BEHIND}: it may be removed), or
 * that cannot be told ({@link State#UNKNOWN}: it is kept). Made by {@link RootEntries}; immutable.
 */
public final class RootEntry
{
    /** Kinds of file in the shm root. */
    public enum Kind
    {
        /** {@code <domain>.domain}: a domain region, used by every process that opened the domain. */
        REGION("domain region"),
        /** {@code <domain>.<av>.<region nonce>.av}: a named address vector of one region of a domain. */
        ADDRESS_VECTOR("address vector"),
        /** {@code <domain>.seg.<pid>.<n>}: shareable memory of one process. */
        SEGMENT("shareable memory segment"),
        /** {@code .<target>.<owner>.<random>.tmp}: a file being built, or left half-built. */
        TEMPORARY("temporary file"),
        /** Anything else: not a file jfabric's shm provider makes (or one of an older jfabric). */
        OTHER("other file");

        private final String text;

        Kind(final String text)
        {
            this.text = text;
        }

        /** @return how messages name the kind. */
        public String text()
        {
            return text;
        }
    }

    /** What cleanup may do with the file. */
    public enum State
    {
        /** A live process uses it: never touched. */
        IN_USE,
        /** Every process that made or used it is gone: may be removed. */
        LEFT_BEHIND,
        /** Who uses it cannot be told (another layout, damaged, not jfabric's): kept. */
        UNKNOWN
    }

    private final Path path;
    private final Kind kind;
    private final State state;
    private final long process;
    private final String detail;
    private final boolean withRegion;

    RootEntry(final Path path, final Kind kind, final State state, final long process, final String detail)
    {
        this(path, kind, state, process, detail, false);
    }

    RootEntry(
        final Path path,
        final Kind kind,
        final State state,
        final long process,
        final String detail,
        final boolean withRegion)
    {
        this.path = path;
        this.kind = kind;
        this.state = state;
        this.process = process;
        this.detail = detail;
        this.withRegion = withRegion;
    }

    /** @return the file. */
    public Path path()
    {
        return path;
    }

    /** @return its kind. */
    public Kind kind()
    {
        return kind;
    }

    /** @return what cleanup may do with it. */
    public State state()
    {
        return state;
    }

    /**
     * @return the {@link ProcessIdentity} the state is about: a live user for {@link State#IN_USE}, the (gone)
     * owner for {@link State#LEFT_BEHIND} when the file has one owner, else 0.
     */
    public long process()
    {
        return process;
    }

    /**
     * @return true for an address vector of the region that exists now, whose users are all gone: it may be removed
     * only after that region is (until then a process may open the region again, and the AV with it).
     */
    public boolean withRegion()
    {
        return withRegion;
    }

    /** @return why it is in its state, for people. */
    public String detail()
    {
        return detail;
    }

    @Override
    public String toString()
    {
        return path.getFileName() + " (" + kind.text() + "): " + state + ", " + detail;
    }
}
