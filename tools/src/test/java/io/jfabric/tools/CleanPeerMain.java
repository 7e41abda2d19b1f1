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
package io.jfabric.tools;

import io.jfabric.AvAttr;
import io.jfabric.Domain;
import io.jfabric.Fabric;
import io.jfabric.Fabrics;
import io.jfabric.Info;
import io.jfabric.Versions;

/**
 * A process of a domain for {@link CleanCommandTest}: opens the domain (root and sizes from {@code jfabric.shm.*}
 * system properties), its named AV {@code peers} and a page of shareable memory, prints {@code ready}, and sleeps
 * until it is killed, closing nothing.
 * <p>
 * Argument: the domain's name.
 */
public final class CleanPeerMain
{
    private CleanPeerMain()
    {
    }

    /**
     * @param args the domain's name.
     * @throws Exception on failure, which fails the child.
     */
    public static void main(final String[] args) throws Exception
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        hints.fabricAttr().provName("shm");
        final Info info = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        final Fabric fabric = Fabrics.fabric(info.fabricAttr(), 0);
        final Domain domain = fabric.domain(info, 0);
        domain.avOpen(new AvAttr().name("peers"), 0);
        domain.allocShareable(4096);
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
