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

import io.jfabric.Flags;

import java.util.Locale;

/**
 * Which data-path calls pingpong and bw use ({@code -o}): untagged messages (fi_send/fi_inject/fi_recv, the default,
 * as fi_pingpong's {@code -m msg}), tagged messages (fi_tsend/fi_tinject/fi_trecv with fi_pingpong's tag 1234, as
 * {@code -m tagged}), jfabric's zero-copy claim/commit for sizes up to inject_size (larger sizes fall back to
 * fi_send), or the one-sided calls on memory the peer registered: RMA writes (fi_write/fi_inject_write), RMA reads
 * (fi_read) and 8-byte fetching atomics (fi_fetch_atomic FI_UINT64 FI_SUM). The control messages of a run (hello,
 * the memory keys, fin) always go as messages of the mode's message kind. Immutable.
 */
public enum TransferMode
{
    /** fi_send / fi_inject / fi_recv. */
    MSG("--msg", Flags.FI_MSG, "FI_MSG"),
    /** fi_tsend / fi_tinject / fi_trecv. */
    TAGGED("--tagged", Flags.FI_TAGGED, "FI_TAGGED"),
    /** Endpoint.claim + MessageClaim.commit, received with fi_recv. */
    CLAIM("--claim", Flags.FI_MSG, "FI_MSG"),
    /** fi_write / fi_inject_write into the peer's registered memory. */
    WRITE(null, Flags.FI_MSG | Flags.FI_RMA, "FI_MSG and FI_RMA"),
    /** fi_read from the peer's registered memory. */
    READ(null, Flags.FI_MSG | Flags.FI_RMA, "FI_MSG and FI_RMA"),
    /** fi_fetch_atomic FI_UINT64 FI_SUM on one word of the peer's registered memory. */
    ATOMIC(null, Flags.FI_MSG | Flags.FI_ATOMIC, "FI_MSG and FI_ATOMIC");

    /** fi_pingpong's tag for tagged transfers. */
    static final long TAG = 1234;

    /** The values {@link #parse} takes, for messages and help. */
    static final String NAMES = "msg|tagged|claim|write|read|atomic";

    private final String option;
    private final long caps;
    private final String capsText;

    TransferMode(final String option, final long caps, final String capsText)
    {
        this.option = option;
        this.caps = caps;
        this.capsText = capsText;
    }

    /**
     * @return the command-line flag of pingpong that selects this mode on its own ({@code --tagged},
     * {@code --claim}), or null for a mode only {@code -o} selects.
     */
    public String option()
    {
        return option;
    }

    /** @return the name {@code -o} takes. */
    public String cliName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return true for the calls on the peer's registered memory (write, read, atomic), which no receive answers. */
    public boolean oneSided()
    {
        return this == WRITE || this == READ || this == ATOMIC;
    }

    /** @return the capabilities the run asks fi_getinfo for. */
    long caps()
    {
        return caps;
    }

    /** @return {@link #caps()} as text, for the message when no provider offers them. */
    String capsText()
    {
        return capsText;
    }

    /**
     * @param text the {@code -o} value.
     * @return the mode it names.
     * @throws IllegalArgumentException when it names none.
     */
    static TransferMode parse(final String text)
    {
        for (final TransferMode mode : values())
        {
            if (mode.cliName().equals(text.toLowerCase(Locale.ROOT)))
            {
                return mode;
            }
        }
        throw new IllegalArgumentException("-o must be " + NAMES + ", was '" + text + "'");
    }
}
