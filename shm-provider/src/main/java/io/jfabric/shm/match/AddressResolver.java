package io.jfabric.shm.match;

/**
 * Turns a sender's identity, as a message record carries it, into the fi_addr the receiving endpoint's address
 * vector gives that sender (its user id when the AV uses FI_AV_USER_ID).
 * <p>
 * Implemented by the endpoint over its bound AV; called on the progress thread; must not allocate.
 */
@FunctionalInterface
public interface AddressResolver
{
    /**
     * @param senderId {@code (slot << 32) | (incarnation & 0xFFFF_FFFFL)} of the sending endpoint.
     * @return its fi_addr in the receiver's AV, or {@code FI_ADDR_NOTAVAIL} when it is not (yet) inserted.
     */
    long fiAddrOf(long senderId);
}
