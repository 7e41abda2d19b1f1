package io.jfabric;

/**
 * The one exception of jfabric's control path (getinfo, open, close, bind, enable, register, insert).
 * It carries libfabric's error number, so a caller can branch on it exactly as a C caller branches on
 * the negative return of the same call, and a message that says what was wrong and with which value.
 * <p>
 * The data path never throws it: sends, receives, completion reads and counter reads return negated
 * error numbers instead.
 */
public final class FabricException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int errno;
    private final String reason;

    /**
     * @param errno   libfabric error number, positive (as {@link Errno#FI_EINVAL}); a negated one is accepted.
     * @param message what was wrong, with the offending value.
     */
    public FabricException(final int errno, final String message)
    {
        super(format(errno, message));
        this.errno = Math.abs(errno);
        this.reason = message;
    }

    /**
     * @param errno   libfabric error number.
     * @param message what was wrong, with the offending value.
     * @param cause   the underlying failure, such as an {@link java.io.IOException} from mapping a file.
     */
    public FabricException(final int errno, final String message, final Throwable cause)
    {
        super(format(errno, message), cause);
        this.errno = Math.abs(errno);
        this.reason = message;
    }

    /**
     * @return the positive libfabric error number, such as {@link Errno#FI_EBUSY}.
     */
    public int errno()
    {
        return errno;
    }

    /**
     * @return what was wrong, without the errno suffix {@link #getMessage()} adds.
     */
    public String reason()
    {
        return reason;
    }

    private static String format(final int errno, final String message)
    {
        final String name = Errno.name(errno);
        return message + " [" + (name != null ? name : "errno " + Math.abs(errno)) + ": " +
            Errno.strerror(errno) + "]";
    }
}
