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
package io.jfabric.ofi.ep;

import io.jfabric.Errno;
import io.jfabric.MessageClaim;

import java.nio.ByteBuffer;

/**
 * The message claim of a native endpoint: there is never a claim open ({@code Endpoint.claim} answers -FI_ENOSYS,
 * native providers have no ring of the peer's to write into), so commit and abort answer -FI_EINVAL. Stateless.
 */
final class NoClaim implements MessageClaim
{
    static final NoClaim INSTANCE = new NoClaim();

    private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0);

    private NoClaim()
    {
    }

    @Override
    public ByteBuffer buffer()
    {
        return EMPTY;
    }

    @Override
    public int offset()
    {
        return 0;
    }

    @Override
    public int length()
    {
        return 0;
    }

    @Override
    public long commit()
    {
        return -Errno.FI_EINVAL;
    }

    @Override
    public long abort()
    {
        return -Errno.FI_EINVAL;
    }
}
