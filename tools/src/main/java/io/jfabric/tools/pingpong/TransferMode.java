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

/**
 * Which data-path calls pingpong uses: untagged messages (fi_send/fi_inject/fi_recv, the default, as
 * fi_pingpong's {@code -m msg}), tagged messages (fi_tsend/fi_tinject/fi_trecv with fi_pingpong's tag 1234, as
 * {@code -m tagged}), or jfabric's zero-copy claim/commit for sizes up to inject_size (larger sizes fall back to
 * fi_send). Immutable.
 */
public enum TransferMode
{
    /** fi_send / fi_inject / fi_recv. */
    MSG("--msg"),
    /** fi_tsend / fi_tinject / fi_trecv. */
    TAGGED("--tagged"),
    /** Endpoint.claim + MessageClaim.commit, received with fi_recv. */
    CLAIM("--claim");

    /** fi_pingpong's tag for tagged transfers. */
    static final long TAG = 1234;

    private final String option;

    TransferMode(final String option)
    {
        this.option = option;
    }

    /** @return the command-line option that selects this mode. */
    public String option()
    {
        return option;
    }
}
