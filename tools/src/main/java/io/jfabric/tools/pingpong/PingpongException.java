package io.jfabric.tools.pingpong;

/**
 * A pingpong that could not finish: the errno the command exits with and a message naming the call that failed.
 */
final class PingpongException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int errno;

    PingpongException(final int errno, final String message)
    {
        super(message);
        this.errno = errno;
    }

    /** @return the positive errno. */
    int errno()
    {
        return errno;
    }
}
