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
package io.jfabric;

import java.nio.ByteBuffer;

/**
 * A zero-copy send in progress, beyond libfabric (like Aeron's {@code BufferClaim}): after a successful
 * {@link Endpoint#claim}, the application writes the message straight into the peer's receive ring through
 * {@link #buffer()} at absolute indices {@code [offset(), offset() + length())}, then calls {@link #commit()} (the
 * message becomes visible to the peer and completes like an inject: no local completion) or {@link #abort()} (the
 * space is released and the peer sees nothing).
 * <p>
 * One per endpoint ({@link Endpoint#messageClaim()}); only one claim may be open at a time and the thread that
 * claimed must commit or abort before the endpoint sends anything else. Writing outside the claimed range
 * corrupts the peer's ring.
 */
public interface MessageClaim
{
    /** @return a buffer over the peer's ring, valid until commit or abort; use absolute puts only. */
    ByteBuffer buffer();

    /** @return absolute index of the first claimed byte in {@link #buffer()}. */
    int offset();

    /** @return claimed bytes. */
    int length();

    /** @return 0, or {@code -FI_EINVAL} when no claim is open, {@code -FI_EBADF} once the endpoint is closed. */
    long commit();

    /** @return 0, or {@code -FI_EINVAL} when no claim is open, {@code -FI_EBADF} once the endpoint is closed. */
    long abort();
}
