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
package io.jfabric.examples;

import io.jfabric.EpType;
import io.jfabric.FabricException;
import io.jfabric.Fabrics;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;

/**
 * Whether getinfo finds {@code tcp;ofi_rxm} on 127.0.0.1 in this JVM: exit 0, or 1 with the reason (libfabric not
 * installed, the provider not loaded). Run by {@link NeedsOfiTcp} on the JDK and class path the examples over tcp
 * run on.
 */
public final class TcpProbe
{
    private TcpProbe()
    {
    }

    /**
     * @param args none.
     */
    public static void main(final String[] args)
    {
        final Info hints = new Info().caps(Flags.FI_MSG);
        hints.epAttr().type(EpType.RDM);
        hints.fabricAttr().provName("tcp");
        try
        {
            final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, "127.0.0.1", "0", Flags.FI_SOURCE, hints)
                .get(0);
            System.out.println("tcp probe: " + info.fabricAttr().provName() + " on " + info.domainAttr().name());
        }
        catch (final FabricException ex)
        {
            System.out.println("tcp probe: " + ex.getMessage());
            System.exit(1);
        }
    }
}
