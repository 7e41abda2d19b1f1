package io.jfabric;

/**
 * What every fabric object is ({@code struct fid}): it has a class, carries the context the application gave
 * when opening it, and is closed exactly once.
 * <p>
 * {@link #close()} is idempotent: a second close does nothing. Closing an object that still has objects
 * opened from it or bound to it fails with a {@link FabricException} carrying {@link Errno#FI_EBUSY}, and
 * leaves the object open.
 */
public interface Fid extends AutoCloseable
{
    /**
     * @return the object's class.
     */
    FidClass fidClass();

    /**
     * @return the context given when the object was opened ({@code fid->context}).
     */
    long context();

    /**
     * {@code fi_close}: release the object.
     *
     * @throws FabricException {@link Errno#FI_EBUSY} while objects opened from or bound to it remain open.
     */
    @Override
    void close();
}
