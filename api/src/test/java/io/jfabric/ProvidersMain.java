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

import io.jfabric.spi.FabricProvider;

/**
 * Child JVM of {@link FabricsLinkageTest}: prints the providers {@link Fabrics#providers()} found, one
 * {@code provider: <name>} line each, then the prov_name of every info a getinfo for {@code args[0]} returns.
 */
public final class ProvidersMain
{
    private ProvidersMain()
    {
    }

    /**
     * @param args the prov_name to ask getinfo for.
     */
    public static void main(final String[] args)
    {
        for (final FabricProvider provider : Fabrics.providers())
        {
            System.out.println("provider: " + provider.name());
        }
        final Info hints = new Info();
        hints.fabricAttr().provName(args[0]);
        for (final Info info : Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints))
        {
            System.out.println("info: " + info.fabricAttr().provName());
        }
    }
}
