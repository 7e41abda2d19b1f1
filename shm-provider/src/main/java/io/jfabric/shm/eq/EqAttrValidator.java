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
package io.jfabric.shm.eq;

import io.jfabric.EqAttr;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Flags;
import io.jfabric.WaitObj;
import io.jfabric.shm.config.ShmConfig;

/**
 * Checks the attributes an application gives {@code fi_eq_open} against what the shm provider supports, and
 * resolves them into the attributes the queue actually has.
 * <p>
 * The rules, with the error each breach raises:
 * <ul>
 *   <li>attributes missing, a negative size, a size above the largest depth ({@link ShmConfig#eqSize()}), an
 *       unknown flag, or no wait object: {@link Errno#FI_EINVAL}. fi_eq(3) defines only FI_WRITE and
 *       FI_AFFINITY for {@code fi_eq_attr.flags}, and libfabric's own utility EQ refuses other bits with
 *       FI_EINVAL.</li>
 *   <li>{@link WaitObj#FD}, {@link WaitObj#POLLFD}, {@link WaitObj#SET}: {@link Errno#FI_ENOSYS}. They are valid
 *       requests the page defines, but a JVM has no file descriptor to hand out and jfabric has no wait sets;
 *       "not implemented" says that, as libfabric's sockets provider answers for wait objects it lacks.</li>
 * </ul>
 * A size of 0 becomes the default depth; FI_AFFINITY's signaling vector is accepted and ignored, as the page
 * allows (there are no interrupts to steer). Stateless and thread safe.
 */
final class EqAttrValidator
{
    private static final long SUPPORTED_FLAGS = Flags.FI_WRITE | Flags.FI_AFFINITY;

    private EqAttrValidator()
    {
    }

    /**
     * @param requested the application's attributes.
     * @param config    the provider's limits.
     * @return a new attribute set: the request with its size resolved.
     * @throws FabricException {@link Errno#FI_EINVAL} or {@link Errno#FI_ENOSYS} as described above.
     */
    public static EqAttr resolve(final EqAttr requested, final ShmConfig config)
    {
        if (requested == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_eq_open: attr is null");
        }
        final long size = requested.size();
        final int largest = config.eqSize();
        if (size < 0)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_eq_open: size=" + size + " is negative");
        }
        if (size > largest)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_eq_open: size=" + size + " exceeds the largest event " +
                "queue depth " + largest + " (" + ShmConfig.PREFIX + "eq.size)");
        }
        final long unknown = requested.flags() & ~SUPPORTED_FLAGS;
        if (unknown != 0)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_eq_open: flags=0x" + Long.toHexString(requested.flags()) +
                " has bits 0x" + Long.toHexString(unknown) + " that are neither FI_WRITE nor FI_AFFINITY");
        }
        final WaitObj waitObj = requested.waitObj();
        if (waitObj == null)
        {
            throw new FabricException(Errno.FI_EINVAL, "fi_eq_open: wait_obj is null; use FI_WAIT_NONE for none");
        }
        switch (waitObj)
        {
            case NONE:
            case UNSPEC:
            case MUTEX_COND:
            case YIELD:
                break;
            case SET:
                throw new FabricException(Errno.FI_ENOSYS,
                    "fi_eq_open: wait_obj=FI_WAIT_SET is not supported: jfabric has no wait sets; " +
                    "use FI_WAIT_UNSPEC and fi_eq_sread");
            default:
                throw new FabricException(Errno.FI_ENOSYS, "fi_eq_open: wait_obj=" + waitObj.cName() +
                    " is not supported: the shm provider has no file descriptor to wait on; " +
                    "use FI_WAIT_UNSPEC and fi_eq_sread");
        }
        return requested.copy().size(size == 0 ? largest : size);
    }
}
