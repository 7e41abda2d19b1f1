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
 * The second process of {@link ScalableEndpointLimitsTest}: opens a {@link ScalableSide} of {@code contexts}
 * transmit and receive contexts in the named domain with the default settings (printing {@code result addr=...},
 * or {@code result error=...} when that fails), then on {@code peer ADDR} sends from each transmit context to the
 * same-numbered receive context of that scalable endpoint as side 'B' and prints {@code result got=...}. Ends on
 * {@code exit}.
 */
public final class ScalableSidePeerMain
{
    private ScalableSidePeerMain()
    {
    }

    /**
     * @param args the domain name and the context count.
     * @throws Exception on any failure (the test sees the output).
     */
    public static void main(final String[] args) throws Exception
    {
        final int contexts = Integer.parseInt(args[1]);
        final ScalableSide side;
        try
        {
            side = new ScalableSide(new ShmProvider(), args[0], contexts, contexts);
        }
        catch (final RuntimeException ex)
        {
            System.out.println("result error=" + String.valueOf(ex.getMessage()).replace(' ', '_'));
            return;
        }
        try (ScalableSide s = side)
        {
            System.out.println("result addr=" + s.address());
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            String line;
            while ((line = in.readLine()) != null && !"exit".equals(line.trim()))
            {
                if (line.startsWith("peer "))
                {
                    s.sendToEachContext(line.substring(5).trim(), 'B');
                    System.out.println("result got=" + s.awaitCompletions(30_000));
                }
            }
        }
    }
}
