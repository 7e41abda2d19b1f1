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
package io.jfabric.shm.soak;

/**
 * What one soak instance has sent to one receiver instance: sequence numbers are given out from 1, one per send
 * the provider took (returned 0); each then ends as a success (an inject at once, a send at its completion) or an
 * error completion. A send the provider refused at the call (-FI_EHOSTUNREACH, -FI_EAGAIN) took no number.
 * <p>
 * Owned by the sending thread of a {@link SoakPeerMain}; not thread safe.
 */
final class SendLedger
{
    final long receiver;
    long posted;
    long succeeded;
    long bytes;
    long outstanding;
    final SeqRanges failed = new SeqRanges();

    /**
     * @param receiver the receiver instance.
     */
    SendLedger(final long receiver)
    {
        this.receiver = receiver;
    }

    /** @return the next sequence number, now taken. */
    long next()
    {
        return ++posted;
    }

    /**
     * @param length bytes of the message that succeeded.
     */
    void succeeded(final int length)
    {
        succeeded++;
        bytes += length;
    }

    /**
     * @return the highest sequence number that did not fail, 0 for none: once nothing is outstanding, what the
     * receiver must reach.
     */
    long highestSucceeded()
    {
        return failed.highestAbsent(posted);
    }
}
