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
package io.jfabric.shm;

import io.jfabric.Domain;
import io.jfabric.Fabric;
import io.jfabric.FabricException;
import io.jfabric.Fabrics;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.testsupport.ChildJvm;

import java.util.List;

/**
 * A process started without the Agrona export flag (see {@link ChildJvm#startWithoutAgronaExports}): opens the
 * named domain (root from {@code -Djfabric.shm.dir}) several times through the public API and prints one line per
 * try, {@code result try=<n> errno=<errno> message=<text>} for a {@link FabricException}, {@code result try=<n>
 * thrown=<class>} for anything else, {@code result try=<n> opened} when it worked.
 * <p>
 * Arguments: {@code <domain> <tries>}.
 */
public final class NoAgronaExportsMain
{
    private NoAgronaExportsMain()
    {
    }

    /**
     * @param args see the class description.
     */
    public static void main(final String[] args)
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        final int tries = Integer.parseInt(args[1]);
        for (int i = 0; i < tries; i++)
        {
            String result;
            try
            {
                final List<Info> infos = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints);
                try (Fabric fabric = Fabrics.fabric(infos.get(0).fabricAttr(), 0);
                    Domain domain = fabric.domain(infos.get(0), 0))
                {
                    result = "opened";
                }
            }
            catch (final FabricException ex)
            {
                result = "errno=" + ex.errno() + " message=" + ex.getMessage().replace(' ', '_');
            }
            catch (final Throwable ex)
            {
                result = "thrown=" + ex.getClass().getName();
            }
            System.out.println("result try=" + i + " " + result);
        }
        System.out.flush();
    }
}
