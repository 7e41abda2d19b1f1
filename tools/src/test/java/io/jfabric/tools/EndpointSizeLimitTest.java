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

import io.jfabric.AddressVector;
import io.jfabric.AvAttr;
import io.jfabric.AvType;
import io.jfabric.CompletionQueue;
import io.jfabric.CqAttr;
import io.jfabric.CqFormat;
import io.jfabric.Domain;
import io.jfabric.Endpoint;
import io.jfabric.EpType;
import io.jfabric.Errno;
import io.jfabric.Fabric;
import io.jfabric.Flags;
import io.jfabric.Info;
import io.jfabric.Versions;
import io.jfabric.shm.ShmProvider;
import io.jfabric.shm.config.ShmConfig;
import io.jfabric.testsupport.PrivateRoot;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link Endpoint}'s Javadoc says a send too large for the endpoint returns is what the shm provider returns
 * (the tools are the only module here that sees both the api's sources and the provider): {@code -FI_EMSGSIZE} for
 * an inject above inject_size and for any send above max_msg_size. The provider's own endpoint tests are the better
 * home for the behaviour half; the Javadoc half keeps the two from drifting apart again.
 */
class EndpointSizeLimitTest
{
    private static final Path ENDPOINT_SOURCE = Path.of("..", "api", "src", "main", "java", "io", "jfabric",
        "Endpoint.java");
    private static final int MAX_MSG_SIZE = 65536;

    private PrivateRoot ownRoot;
    private Path root;
    private Fabric fabric;
    private Domain domain;
    private AddressVector av;
    private CompletionQueue cq;
    private Endpoint ep;
    private int injectSize;

    @BeforeEach
    void openEndpoint()
    {
        ownRoot = new PrivateRoot("jfabric-tools-limits-");
        root = ownRoot.dir();
        final ShmConfig config = ShmConfig.of(key -> switch (key)
        {
            case "dir" -> root.toString();
            case "ep.count" -> "2";
            case "max.msg.size" -> Integer.toString(MAX_MSG_SIZE);
            default -> null;
        });
        final ShmProvider provider = new ShmProvider(config);
        final Info hints = new Info().caps(Flags.FI_MSG | Flags.FI_TAGGED);
        hints.epAttr().type(EpType.RDM);
        hints.domainAttr().name("limits");
        final Info info = provider.getInfo(Versions.FI_CURRENT_VERSION, null, null, 0, hints).get(0);
        injectSize = (int)info.txAttr().injectSize();
        fabric = provider.fabric(info.fabricAttr(), 0);
        domain = fabric.domain(info, 0);
        av = domain.avOpen(new AvAttr().type(AvType.TABLE).count(2), 0);
        cq = domain.cqOpen(new CqAttr().format(CqFormat.MSG), 0);
        ep = domain.endpoint(info, 0);
        ep.bind(av, 0);
        ep.bind(cq, Flags.FI_TRANSMIT | Flags.FI_RECV);
        ep.enable();
    }

    @AfterEach
    void close() throws Exception
    {
        for (final AutoCloseable closeable : new AutoCloseable[]{ep, cq, av, domain, fabric})
        {
            if (closeable != null)
            {
                closeable.close();
            }
        }
        if (ownRoot != null)
        {
            ownRoot.close();
        }
    }

    @Test
    void shouldReturnEmsgsizeForAnInjectAboveInjectSizeAsItsJavadocSays() throws IOException
    {
        final ByteBuffer buf = ByteBuffer.allocateDirect(injectSize + 1);
        assertEquals(-Errno.FI_EMSGSIZE, ep.inject(buf, 0, injectSize + 1, 0));
        assertEquals(-Errno.FI_EMSGSIZE, ep.injectdata(buf, 0, injectSize + 1, 7, 0));
        assertEquals(-Errno.FI_EMSGSIZE, ep.tinject(buf, 0, injectSize + 1, 0, 1));
        assertEquals(-Errno.FI_EMSGSIZE, ep.tinjectdata(buf, 0, injectSize + 1, 7, 0, 1));

        final String javadoc = javadocBefore("long inject(ByteBuffer buf");
        assertTrue(javadoc.contains("{@code -FI_EMSGSIZE} above inject_size"), javadoc);
        assertTrue(!javadoc.contains("FI_EINVAL} above inject_size"), javadoc);
    }

    @Test
    void shouldReturnEmsgsizeForASendAboveMaxMsgSizeAsTheEndpointsJavadocSays() throws IOException
    {
        final ByteBuffer buf = ByteBuffer.allocateDirect(MAX_MSG_SIZE + 1);
        assertEquals(-Errno.FI_EMSGSIZE, ep.send(buf, 0, MAX_MSG_SIZE + 1, 0, 0, 1));
        assertEquals(-Errno.FI_EMSGSIZE, ep.tsend(buf, 0, MAX_MSG_SIZE + 1, 0, 0, 1, 1));

        final String javadoc = javadocBefore("public interface Endpoint");
        assertTrue(javadoc.contains("{@code -FI_EMSGSIZE} for a message above max_msg_size"), javadoc);
    }

    /** @return the Javadoc comment right before {@code declaration} in Endpoint.java. */
    private static String javadocBefore(final String declaration) throws IOException
    {
        final String source = Files.readString(ENDPOINT_SOURCE);
        final int at = source.indexOf(declaration);
        assertTrue(at > 0, declaration + " in " + ENDPOINT_SOURCE.toAbsolutePath());
        return source.substring(source.lastIndexOf("/**", at), at);
    }
}
