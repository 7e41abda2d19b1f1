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
