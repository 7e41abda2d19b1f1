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
package io.jfabric.shm.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Whether a node name means this host: the shm provider is local only (FI_LOCAL_COMM), so any other node is
 * outside its reach. Never resolves names over the network.
 */
public final class LocalHost
{
    private static final String HOST_NAME = readHostName();

    private LocalHost()
    {
    }

    /**
     * @return this host's name as the kernel reports it, or "localhost" when it cannot be read.
     */
    public static String name()
    {
        return HOST_NAME;
    }

    /**
     * @param node a node name or numeric address.
     * @return true for this host's name (or its short form), localhost and the loopback addresses.
     */
    public static boolean isLocal(final String node)
    {
        if (node == null)
        {
            return true;
        }
        final String n = node.trim().toLowerCase(Locale.ROOT);
        if (n.isEmpty())
        {
            return false;
        }
        if (n.equals("localhost") || n.equals("localhost.localdomain") || n.equals("::1") || n.equals("[::1]") ||
            n.startsWith("127."))
        {
            return n.startsWith("127.") ? isIpv4Loopback(n) : true;
        }
        final String host = HOST_NAME.toLowerCase(Locale.ROOT);
        final int dot = host.indexOf('.');
        return n.equals(host) || (dot > 0 && n.equals(host.substring(0, dot)));
    }

    private static boolean isIpv4Loopback(final String n)
    {
        final String[] parts = n.split("\\.", -1);
        if (parts.length != 4)
        {
            return false;
        }
        for (final String part : parts)
        {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit) ||
                Integer.parseInt(part) > 255)
            {
                return false;
            }
        }
        return true;
    }

    private static String readHostName()
    {
        try
        {
            final Path proc = Path.of("/proc/sys/kernel/hostname");
            if (Files.isReadable(proc))
            {
                final String name = Files.readString(proc).trim();
                if (!name.isEmpty())
                {
                    return name;
                }
            }
        }
        catch (final IOException | RuntimeException ignore)
        {
            // fall through to the environment
        }
        final String env = System.getenv("HOSTNAME");
        return env != null && !env.isBlank() ? env.trim() : "localhost";
    }
}
