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
package io.jfabric.ofi;

import io.jfabric.EpType;
import io.jfabric.Errno;
import io.jfabric.FabricException;
import io.jfabric.Info;
import io.jfabric.ofi.core.FidRegistry;
import io.jfabric.ofi.core.NativeCalls;
import io.jfabric.ofi.info.NativeInfo;
import io.jfabric.ofi.info.ProviderNameMap;

import java.util.ArrayList;
import java.util.List;

/**
 * The ofi provider's {@code fi_getinfo}: libfabric's, with the hints copied in field by field and every answer
 * copied out, then two things jfabric does not offer taken out, each with its reason in the FI_ENODATA message
 * when nothing is left:
 * <ul>
 *   <li>endpoint types other than FI_EP_RDM: connected FI_EP_MSG endpoints (passive endpoints, CM events) and
 *   FI_EP_DGRAM are not built; hints asking for them get FI_ENODATA, as the shm provider answers;</li>
 *   <li>libfabric's own {@code shm}, unless asked for by {@value ProviderNameMap#NATIVE_SHM}
 *   ({@link ProviderNameMap}).</li>
 * </ul>
 * Control path. Stateless; any thread.
 */
final class OfiGetInfo
{
    private OfiGetInfo()
    {
    }

    static List<Info> getInfo(
        final int version, final String node, final String service, final long flags, final Info hints)
    {
        final String requested = hints != null && hints.fabricAttr() != null ? hints.fabricAttr().provName() : null;
        final EpType wantedType = hints != null && hints.epAttr() != null ? hints.epAttr().type() : EpType.UNSPEC;
        if (wantedType != EpType.UNSPEC && wantedType != EpType.RDM)
        {
            throw new FabricException(Errno.FI_ENODATA, "only FI_EP_RDM endpoints are built, not " +
                wantedType.cName());
        }
        final long nativeHints = hints == null ? 0 :
            NativeInfo.allocate(hints, ProviderNameMap.toNative(requested), FidRegistry.INSTANCE);
        final NativeInfo.Result result;
        try
        {
            result = NativeInfo.getinfo(version, node, service, flags, nativeHints, FidRegistry.INSTANCE);
        }
        finally
        {
            NativeInfo.free(nativeHints);
        }
        if (result.rc() != 0)
        {
            throw NativeCalls.failure(-result.rc(), "fi_getinfo" + (requested != null ?
                " (prov_name=" + requested + ")" : ""));
        }
        final boolean nativeShm = ProviderNameMap.wantsNativeShm(requested);
        final List<Info> offered = new ArrayList<>();
        int notRdm = 0;
        int shm = 0;
        for (final Info info : result.infos())
        {
            final String provName = info.fabricAttr() != null ? info.fabricAttr().provName() : null;
            if (info.epAttr() != null && info.epAttr().type() != EpType.RDM)
            {
                notRdm++;
            }
            else if (ProviderNameMap.isNativeShm(provName) && !nativeShm)
            {
                shm++;
            }
            else
            {
                if (info.fabricAttr() != null)
                {
                    info.fabricAttr().provName(ProviderNameMap.fromNative(provName));
                }
                offered.add(info);
            }
        }
        if (offered.isEmpty())
        {
            throw new FabricException(Errno.FI_ENODATA, "libfabric offered " + result.infos().size() +
                " configuration(s), none jfabric serves: " + notRdm + " not FI_EP_RDM (only RDM endpoints are " +
                "built), " + shm + " of libfabric's shm (jfabric's shm serves the host; ask for " +
                ProviderNameMap.NATIVE_SHM + " to get libfabric's)");
        }
        return offered;
    }
}
