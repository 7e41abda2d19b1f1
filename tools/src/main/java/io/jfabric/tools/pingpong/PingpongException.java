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
