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
package io.jfabric.shm.match;

/**
 * Turns a sender's identity, as a message record carries it, into the fi_addr the receiving endpoint's address
 * vector gives that sender (its user id when the AV uses FI_AV_USER_ID), and says whether the AV holds the sender
 * within an authorization key (fi_av(3): receives posted with FI_AUTH_KEY and a key handle as their source).
 * <p>
 * Implemented by the endpoint over its bound AV; called on the progress thread; must not allocate.
 */
public interface AddressResolver
{
    /**
     * @param senderId {@code (slot << 32) | (incarnation & 0xFFFF_FFFFL)} of the sending endpoint.
     * @return its fi_addr in the receiver's AV, or {@code FI_ADDR_NOTAVAIL} when it is not (yet) inserted.
     */
    long fiAddrOf(long senderId);

    /**
     * @param senderId  as for {@link #fiAddrOf}.
     * @param keyHandle an authorization key fi_addr_t of the receiver's AV (fi_av_insert_auth_key).
     * @return whether the AV holds the sender's address inserted with FI_AUTH_KEY against that key.
     */
    boolean isUnderKey(long senderId, long keyHandle);

    /**
     * @param keyHandle an fi_addr_t.
     * @return whether it names an authorization key of the receiver's AV now.
     */
    boolean isAuthKey(long keyHandle);
}
