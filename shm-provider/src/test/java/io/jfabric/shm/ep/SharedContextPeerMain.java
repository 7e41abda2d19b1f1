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
package io.jfabric.shm.ep;

import io.jfabric.shm.ShmProvider;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The second process of {@link SharedContextTwoJvmTest}: opens a {@link SharedContextSide} of the named domain in
 * the given mode (printing {@code result addrs=...}, or {@code result error=...} when the set-up fails), then on
 * {@code peers ADDRS} connects to them, sends from each endpoint as side 'B' and prints {@code result got=...}: the
 * messages received, sorted. Ends on {@code exit}.
 */
public final class SharedContextPeerMain
{
    private SharedContextPeerMain()
    {
    }

    /**
     * @param args the domain name and the {@link SharedContextSide.Mode}.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final SharedContextSide side;
        try
        {
            side = new SharedContextSide(new ShmProvider(), args[0], SharedContextSide.Mode.valueOf(args[1]));
        }
        catch (final RuntimeException ex)
        {
            System.out.println("result error=" + ex.getMessage().replace(' ', '_'));
            return;
        }
        try (SharedContextSide s = side)
        {
            System.out.println("result addrs=" + s.addresses());
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            String line;
            while ((line = in.readLine()) != null && !"exit".equals(line.trim()))
            {
                if (line.startsWith("peers "))
                {
                    s.connect(line.substring(6).trim());
                    s.sendAll('B');
                    System.out.println("result got=" + s.awaitCompletions(30_000).replace(' ', '_'));
                }
            }
        }
    }
}
