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
import io.jfabric.Fabrics;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.domain.ShmDomain;

import java.util.List;

/**
 * The second process of the two-JVM domain tests: opens the named domain through the public API (getinfo,
 * fabric, domain) with the root directory given by {@code -Djfabric.shm.dir}, prints what it sees in the region
 * header, and closes.
 */
public final class DomainPeerMain
{
    private DomainPeerMain()
    {
    }

    /**
     * @param args domain name.
     */
    public static void main(final String[] args)
    {
        final Info hints = new Info();
        hints.domainAttr().name(args[0]);
        final List<Info> infos = Fabrics.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints);
        try (Fabric fabric = Fabrics.fabric(infos.get(0).fabricAttr(), 0);
            Domain domain = fabric.domain(infos.get(0), 0))
        {
            final ShmDomain shm = (ShmDomain)domain;
            System.out.println("creatorPid=" + shm.region().creatorPid());
            System.out.println("attachCount=" + shm.region().attachCount());
            System.out.println("created=" + shm.region().created());
            System.out.println("slots=" + shm.region().geometry().slotCount());
        }
    }
}
